// @ts-check
// Starts one run, prints each state it goes through, and exits 0 when it succeeds.
// Reads AGENT_RUNS_API_KEY and AGENT_RUNS_BASE_URL, like every agent-runs client.
import { AgentRunsClient, AgentRunsError, formatElapsed } from '@agent-runs/core';

const prompt = process.argv[2] ?? 'Say hello from the core-client example';
const client = new AgentRunsClient({ userAgent: 'agent-runs-example-core-client/0.0.0' });

try {
  const run = await client.runs.createAndWait(
    { prompt, title: 'core-client example' },
    {
      timeout: 5 * 60_000,
      onCreate: (created) => console.log(`started ${created.run_id}`),
      onUpdate: ({ run, elapsedMs }) => console.log(`${run.state} after ${formatElapsed(elapsedMs)}`),
    },
  );
  console.log(`run ${run.run_id} ended ${run.state}: ${run.status_message?.message ?? ''}`);
  process.exitCode = run.state === 'SUCCEEDED' ? 0 : 1;
} catch (error) {
  if (!(error instanceof AgentRunsError)) throw error;
  console.error(`agent-runs: ${error.message}`);
  process.exitCode = 2;
} finally {
  await client.close();
}
