import type { RunStatusMessage } from '@agent-runs/core/contract';
import { serverDir } from '../../executors/agent-files.js';
import { prepareWorkspace } from '../../executors/prepare-workspace.js';
import { applyPatches, restoredNote, type PatchesApplied } from '../../executors/restore-workspace.js';
import type { JobWorkspace } from './job-workspace.js';

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The workspace the worker wrote (`AGENT_RUNS_JOB_WORKSPACE`), checked; throws naming what is wrong. */
export function parseJobWorkspace(text: string): JobWorkspace {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("AGENT_RUNS_JOB_WORKSPACE is not JSON: it is written by agent-runs-worker, as the run's workspace.");
  }
  const w = json as Partial<JobWorkspace> | null;
  if (!w || typeof w !== 'object') throw new Error('AGENT_RUNS_JOB_WORKSPACE must be an object.');
  if (w.environment !== undefined && typeof w.environment !== 'string') throw new Error('AGENT_RUNS_JOB_WORKSPACE.environment must be a string.');
  const repoOk = (r: unknown) => {
    const repo = r as Record<string, unknown> | null;
    return !!repo && typeof repo['url'] === 'string' && typeof repo['path'] === 'string' && (repo['ref'] === undefined || typeof repo['ref'] === 'string');
  };
  if (!Array.isArray(w.repos) || !w.repos.every(repoOk)) throw new Error('AGENT_RUNS_JOB_WORKSPACE.repos must be a list of { url, path, ref? }.');
  if (!isStrings(w.setup_commands)) throw new Error('AGENT_RUNS_JOB_WORKSPACE.setup_commands must be a list of strings.');
  if (typeof w.step_timeout_seconds !== 'number' || !(w.step_timeout_seconds > 0)) throw new Error('AGENT_RUNS_JOB_WORKSPACE.step_timeout_seconds must be a positive number.');
  const r = w.restore;
  if (r !== undefined && (typeof r !== 'object' || r === null || typeof r.ran_on !== 'string' || typeof r.here !== 'string' || !Number.isSafeInteger(r.patches) || r.patches < 0)) {
    throw new Error('AGENT_RUNS_JOB_WORKSPACE.restore must hold ran_on, here and patches (a count).');
  }
  return w as JobWorkspace;
}

export interface PodWorkspaceOptions {
  workspace: JobWorkspace;
  /** The run's working directory, made here: the agent runs in it. */
  workDir: string;
  /** The setup commands' environment: the agent's (the run's variables and its environment's secrets). */
  env: NodeJS.ProcessEnv;
  onOutput(text: string): void;
  /** A follow-up's patch from the worker: its bytes, or why it could not be had. */
  fetchPatch(index: number): Promise<Buffer | { problem: string }>;
  /** How the preparation is stopped (a cancel, the pod's SIGTERM). */
  setStop(how: () => void): void;
}

/**
 * Inside a Job's pod (or where a dispatch command sent the entrypoint): the run's working
 * directory prepared as the server's EnvironmentExecutor prepares it, with the same code:
 * the repositories cloned and the setup commands run (`prepareWorkspace`, their output
 * streamed to the run, a failed step named), then, for a follow-up, the run's earlier
 * `changes.patch` files applied and said in the output (`applyPatches`, `restoredNote`).
 * The pod is the sandbox: the steps run as the image's user, with the pod's network.
 * Undefined when the agent may start; else the run's status message.
 */
export async function preparePodWorkspace(o: PodWorkspaceOptions): Promise<RunStatusMessage | undefined> {
  const { workspace, workDir } = o;
  serverDir(workDir);
  // The patches first: the worker holds them only until it restarts, and the clone may take long.
  const patches: Buffer[] = [];
  let fetchFailed: PatchesApplied['failed'];
  for (let index = 0; index < (workspace.restore?.patches ?? 0); index++) {
    const got = await o.fetchPatch(index);
    if (Buffer.isBuffer(got)) patches.push(got);
    else {
      fetchFailed = { index, complaint: `the worker could not hand it over: ${got.problem}` };
      break;
    }
  }
  let stopped = false;
  if (workspace.repos.length || workspace.setup_commands.length) {
    const environment = {
      id: workspace.environment ?? '',
      name: workspace.environment ?? '',
      description: undefined,
      repos: workspace.repos.map((r) => ({ ...r, owner: '', repo: '' })),
      setupCommands: workspace.setup_commands,
    };
    const preparation = prepareWorkspace(environment, workDir, o.env, o.onOutput, workspace.step_timeout_seconds * 1000);
    o.setStop(() => {
      stopped = true;
      void preparation.cancel();
    });
    const failure = await preparation.done;
    if (failure) return failure;
  }
  if (stopped) return { message: "The run was stopped during its environment's setup.", retryable: false };
  const { restore } = workspace;
  if (restore) {
    const applied = applyPatches(workDir, patches);
    const said = !applied.failed && fetchFailed ? { applied: applied.applied, failed: fetchFailed } : applied;
    const total = Math.max(restore.patches, patches.length);
    const note = restoredNote({ ranOn: restore.ran_on, here: restore.here, patches: Array.from({ length: total }, (_, i) => patches[i] ?? Buffer.alloc(0)) }, {
      ...(workspace.environment ? { checkout: workspace.environment } : {}),
      patches: said,
    });
    o.onOutput(note);
  }
  return undefined;
}
