import type { EnvironmentConfig, RepoSource } from '../domain/server-config.js';
import type { NamedSecrets } from '../domain/named-secrets.js';
import type { ExecutionOutcome } from '../executors/run-executor.js';
import type { ArtifactStore } from '../store/artifacts/artifact-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';
import { publishRunChanges } from './publish-run-changes.js';

/** What an execution's outcome becomes before it is recorded: its changes published. */
export type PublishChanges = (run: RunRecord, execution: number, outcome: ExecutionOutcome) => Promise<ExecutionOutcome>;

export interface RunPullRequestsOptions {
  environments: { get(id: string): EnvironmentConfig | undefined };
  secrets: NamedSecrets;
  store: RunStore;
  artifacts: ArtifactStore;
  /**
   * The run's dashboard page, for the pull request's body: it asks whoever opens it to sign in,
   * where a session link's token would open the session to every reader of the pull request.
   */
  runPage: (runId: string) => string;
  log: (line: string) => void;
}

/** `agent_config.pull_request` as a run may give it (our extension). */
type AskedMode = 'draft' | 'ready' | 'off';

/**
 * Turns a SUCCEEDED execution's `changes.patch` into pull requests on the repositories of its
 * environment that allow them, from the server (never the agent's sandbox), and says what
 * happened in the run's status message. Whatever fails, the outcome stays as it was and the
 * patch stays with the run.
 */
export class RunPullRequests {
  constructor(private readonly o: RunPullRequestsOptions) {}

  readonly publish: PublishChanges = async (run, execution, outcome) => {
    if (outcome.state !== 'SUCCEEDED') return outcome;
    const patch = outcome.artifacts?.find((a) => a.type === 'FILE' && a.data['filename'] === 'changes.patch')?.content;
    if (!patch || patch.length === 0) return outcome;
    const repos = this.reposFor(run);
    if (repos.length === 0) return outcome;
    try {
      // Its usage as it ended (the run as claimed holds what it was then).
      const now = (await this.o.store.get(run.id)) ?? run;
      const earlier = (await this.o.artifacts.listByRun(run.id)).filter((a) => a.type === 'PULL_REQUEST').map((a) => String(a.data['url'] ?? ''));
      const result = outcome.statusMessage?.message ?? '';
      const published = await publishRunChanges(
        repos,
        { runId: run.id, title: run.title, result, details: details(now, this.o.runPage(now.id)), patch: patch.toString('utf8'), execution, earlier },
        (name) => this.o.secrets.value(name),
      );
      if (published.notes.length === 0) return outcome;
      return {
        ...outcome,
        artifacts: [...(outcome.artifacts ?? []), ...published.artifacts],
        statusMessage: { ...outcome.statusMessage, message: [result, ...published.notes].filter(Boolean).join('\n') },
      };
    } catch (error) {
      this.o.log(`Run ${run.id}: its changes were not published: ${(error as Error).message}`);
      return { ...outcome, statusMessage: { ...outcome.statusMessage, message: [outcome.statusMessage?.message, 'No pull request: the server could not publish the changes; they are kept in changes.patch.'].filter(Boolean).join('\n') } };
    }
  };

  /** The run's environment's repositories that take a pull request, in the mode the run asked for (or theirs). */
  private reposFor(run: RunRecord): RepoSource[] {
    const envId = run.agentConfig.environment_id;
    const env = envId ? this.o.environments.get(envId) : undefined;
    const asked = run.agentConfig['pull_request'] as AskedMode | undefined;
    return (env?.repos ?? []).flatMap((repo) => {
      const settings = repo.pullRequests;
      const mode = asked ?? settings?.mode;
      return settings && mode && mode !== 'off' ? [{ ...repo, pullRequests: { ...settings, mode } }] : [];
    });
  }
}

/** The body's lines after the result: where the run is seen, what it cost. */
function details(run: RunRecord, link: string): string[] {
  const usage = run.requestUsage;
  const spent = [
    usage?.inference_cost_usd !== undefined ? `$${usage.inference_cost_usd.toFixed(4)}` : undefined,
    usage?.total_tokens !== undefined ? `${usage.total_tokens.toLocaleString('en-US')} tokens` : undefined,
  ].filter(Boolean);
  return [`Run ${run.id}: ${link}`, ...(spent.length > 0 ? [`Spent: ${spent.join(', ')}`] : [])];
}
