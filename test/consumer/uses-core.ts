// Compiled, never run: a user's code against the BUILT package (its exports map and
// .d.ts files), checking the type of every public method. `npm test` runs tsc on it.
import {
  AgentRunsClient,
  APIError,
  APIPromise,
  ArtifactItemSchema,
  Conversations,
  NotFoundError,
  PagePromise,
  RequestValidationError,
  Runs,
  RunsPage,
  Sessions,
  WaitTimeoutError,
  apiKeyFromEnv,
  baseURLProblem,
  isArtifactOfType,
  isTerminalState,
  missingApiKeyProblem,
  nameIssues,
  readPromptFile,
  withIssueNames,
  VERSION,
  runHeadline,
  type ArtifactItem,
  type FollowOutcome,
  type ListAgentIdentitiesResponse,
  type ListAgentSkillsResponse,
  type RunChange,
  type ArtifactDownloadResult,
  type ArtifactResponse,
  type ConversationResponse,
  type HandoffAttachmentsResponse,
  type RunFollowupResponse,
  type ConversationCheckRedirectResponse,
  type ListRunsQuery,
  type RunAgentRequest,
  type RunAgentResponse,
  type RunItem,
  type RunUpdate,
  type SessionCheckRedirectResponse,
  type ValidationIssue,
  type WithResponse,
} from '@agent-runs/core';
import { sourceFromHeader, ERROR_CODE_STATUS, listQueryFromSearchParams } from '@agent-runs/core/contract';

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): void {}

export async function everyMethod(): Promise<void> {
  const client = new AgentRunsClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:8080/api/v1', timeout: 5_000, maxRetries: 1 });
  const runs: Runs = client.runs;
  const sessions: Sessions = client.sessions;
  const conversations: Conversations = client.conversations;

  const body: RunAgentRequest = {
    prompt: 'Fix the flaky test',
    skill: 'org/repo:triage',
    title: 'Fix',
    team: true,
    config: { model_id: 'm', environment_id: 'e', idle_timeout_minutes: 5, harness: { type: 'claude' }, mcp_servers: { gh: { url: 'https://x' } } },
    metadata: { team: 'core' },
    mode: 'plan',
    attachments: [{ file_name: 'a.png', mime_type: 'image/png', data: 'aGk=' }],
    conversation_id: 'c',
    parent_run_id: 'p',
    interactive: false,
    agent_identity_uid: 'a',
    on_behalf_of: 'u',
  };
  // @ts-expect-error mode is one of normal, plan, orchestrate
  const badMode: RunAgentRequest = { prompt: 'x', mode: 'fast' };
  void badMode;

  const create = runs.create(body, { idempotencyKey: 'k', timeout: 1000 });
  assertType<Equals<typeof create, APIPromise<RunAgentResponse>>>();
  const created: RunAgentResponse = await create;
  const withResponse: WithResponse<RunAgentResponse> = await runs.create(body).withResponse();
  const status: number = withResponse.response.status;
  void status;

  const run: RunItem = await runs.get(created.run_id);
  const artifacts: ArtifactItem[] | undefined = run.artifacts;
  for (const artifact of artifacts ?? []) {
    if (isArtifactOfType(artifact, 'PULL_REQUEST')) {
      const url: string = artifact.data.url;
      void url;
    }
  }
  const tokens: number | undefined = run.request_usage?.total_tokens;
  const metadata: Record<string, string> | undefined = run.metadata;
  const cancellable: boolean | undefined = run.is_run_type_cancellable;
  const executor: string | undefined = run.executor?.uid;
  void [tokens, metadata, cancellable, executor];

  const query: ListRunsQuery = {
    state: ['FAILED', 'ERROR'],
    execution_location: 'REMOTE',
    schedule_id: 's',
    ancestor_run_id: 'r',
    artifact_type: 'FILE',
    metadata: { team: 'core' },
    executor: 'u',
    automation_id: 'a',
    factory_uid: 'f',
    skill: 'o/r:s',
    limit: 10,
    sort_by: 'created_at',
    sort_order: 'asc',
  };
  const pages = runs.list(query);
  assertType<Equals<typeof pages, PagePromise>>();
  const page: RunsPage = await pages;
  const more: boolean = page.hasNextPage();
  void more;
  for await (const item of runs.list()) {
    const state: string = item.state;
    void state;
  }

  const cancelled: string = await runs.cancel(run.run_id);
  void cancelled;
  const waited: RunItem = await runs.wait(run.run_id, {
    timeout: 60_000,
    onUpdate: (update: RunUpdate) => {
      const changed: boolean = update.stateChanged;
      void changed;
    },
  });
  const finished: RunItem = await runs.createAndWait(body, { onCreate: (c) => void c.run_id });
  void [waited, finished, isTerminalState(finished.state)];
  const followed: FollowOutcome = await runs.follow(run.run_id, {
    onChange: (change: RunChange) => void [change.statusChanged, change.newSessionLink],
  });
  const headline: string | undefined = followed.kind === 'finished' ? runHeadline(followed.run) : followed.run?.state;
  void headline;

  // Skills and named agents.
  const skills: ListAgentSkillsResponse = await client.skills.list({ sort_by: 'name' });
  const named: ListAgentIdentitiesResponse = await client.agents.list();
  void [skills.agents.length, named.agents.length];

  // Continuing a run and collecting what it made.
  const followup: RunFollowupResponse = await runs.followup(run.run_id, { message: 'Also fix the docs', mode: 'normal' });
  const said: ConversationResponse = await runs.conversation(run.run_id);
  const transcript: string = await runs.transcript(run.run_id);
  const handoff: HandoffAttachmentsResponse = await runs.handoffAttachments(run.run_id);
  const artifact: ArtifactResponse = await client.artifacts.get('a1');
  const saved: ArtifactDownloadResult = await client.artifacts.download('a1', { to: '/tmp/a1', onProgress: (p) => void p.received });
  void [followup, said, transcript, handoff, artifact, saved.bytes];

  const conversation: SessionCheckRedirectResponse = await sessions.checkRedirect('s');
  const session: ConversationCheckRedirectResponse = await conversations.checkRedirect('c');
  const conversationId: string | undefined = conversation.conversation_id;
  const sessionId: string | undefined = session.session_id;
  void [conversationId, sessionId];

  const raw: unknown = await client.request({ method: 'GET', path: '/agent/environments' });
  const typed: { ok: boolean } = await client.get<{ ok: boolean }>('/x');
  await client.post('/x', { body: {} });
  await client.put('/x', { body: {} });
  await client.delete('/x');
  void [raw, typed];

  try {
    await runs.get('');
  } catch (error) {
    if (error instanceof RequestValidationError) {
      const issues: readonly ValidationIssue[] = error.issues;
      const named: RequestValidationError = error.withNames({ prompt: '--prompt' });
      void [issues, named, nameIssues(issues, { a: 'b' })];
    }
    if (error instanceof NotFoundError) {
      const code: string | undefined = error.code;
      void code;
    }
    if (error instanceof APIError) void error.status;
    if (error instanceof WaitTimeoutError) void error.lastRun;
    throw withIssueNames(error, { prompt: '--prompt' });
  }

  const key: string | undefined = apiKeyFromEnv(process.env);
  const problem: string | undefined = baseURLProblem('x') ?? missingApiKeyProblem(client, 'pass --api-key');
  const prompt: string = readPromptFile('task.md');
  const version: string = VERSION;
  ArtifactItemSchema.parse({});
  void [key, problem, prompt, version];

  // The server-only entry point.
  const source: string = sourceFromHeader('CLI');
  const notFound: number = ERROR_CODE_STATUS.resource_not_found;
  const parsed: Record<string, unknown> = listQueryFromSearchParams(new URLSearchParams('metadata[a]=b'));
  void [source, notFound, parsed];

  const other: AgentRunsClient = client.withOptions({ timeout: 1 });
  await other.close();
  await client.close();
}
