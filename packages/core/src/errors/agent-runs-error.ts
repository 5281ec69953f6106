/** The base of every error this package throws: `catch (e) { if (e instanceof AgentRunsError) … }`. */
export class AgentRunsError extends Error {
  override name = 'AgentRunsError';
}
