import type { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import type { ResolvedOptions } from '../config/resolve-options.js';
import { runPolicyFor, sandboxFor } from '../config/sandbox-config.js';
import { SecretMask } from '../domain/secret-mask.js';
import type { ServerConfig } from '../domain/server-config.js';
import { CommandExecutor } from '../executors/command-executor.js';
import { EnvironmentExecutor } from '../executors/environment-executor.js';
import { harnessExecutors } from '../executors/harness/harness-executor.js';
import { HarnessRouter } from '../executors/harness/harness-router.js';
import { HarnessSetup } from '../executors/harness/harness-setup.js';
import { BudgetedExecutor } from '../executors/budgeted-executor.js';
import { MaskedExecutor } from '../executors/masked-executor.js';
import { findAgentRunsMcp } from '../executors/harness/agent-runs-mcp.js';
import type { RunPolicy } from '../executors/run-policy.js';
import type { ProcessGroupRecord, RunExecutor } from '../executors/run-executor.js';
import type { AgentSandbox } from '../executors/sandbox/agent-sandbox.js';
import { bareAgentsWarning } from '../executors/sandbox/bare-agents-warning.js';
import { checkPrincipalUsers } from '../executors/sandbox/principal-users.js';
import { SimulatedExecutor } from '../executors/simulated-executor.js';
import type { RunRecord } from '../store/runs/run-record.js';

/** The options an executor is built from: the server's and the worker's alike. */
export type ExecutorOptions = Pick<
  ResolvedOptions,
  'executor' | 'command' | 'commandTimeoutMs' | 'workDir' | 'agentEnv' | 'simulatedDurationMs' | 'harness' | 'sandbox' | 'agentUser' | 'agentUidRange' | 'network' | 'log'
>;

export interface ExecutorWiringInput {
  opts: ExecutorOptions;
  config: ServerConfig;
  environments: EnvironmentRegistry;
  /** The principals whose agents may run here (their users are checked against the sandbox once it is chosen); none on a worker. */
  principals: readonly string[];
  /** Keeps an agent's process group where a restart finds it (the server's store); a worker keeps none. */
  recordProcessGroup: (runId: string, group: ProcessGroupRecord) => void;
}

/** The executor chain and what the server's catalog reads from it. */
export interface WiredExecutor {
  executor: RunExecutor;
  harnessSetup: HarnessSetup;
  models: ModelCatalog;
}

/**
 * The one place a RunExecutor is built, for the server and for a self-hosted worker: the
 * simulated agent or the command, under the environments' setup, the harness CLIs routed by
 * a run's `harness.type`, all in the sandbox, and the named secrets masked in what any of
 * them hands back. Harness keys and named secrets come from `config` and this process's
 * environment: a worker resolves them itself, never from the server.
 */
export function wireExecutor({ opts, config, environments, principals, recordProcessGroup }: ExecutorWiringInput): WiredExecutor {
  // Runs that name a harness (or all, with a default harness) go to its CLI; the rest to the executor chosen below.
  const harnessSetup = new HarnessSetup(config.harnesses, config.secrets, config.environments, process.env, opts.harness);
  const models = new ModelCatalog(harnessSetup);
  const sandbox = agentSandbox(opts, config, principals);
  const runPolicy = runPolicyFor(config);
  const base = makeExecutor(opts, environments, recordProcessGroup, sandbox, runPolicy);
  // Harness runs are sandboxed as command agents are; a process with no harness CLI does not probe for it.
  const harnessSandbox = harnessSetup.names().some((name) => harnessSetup.command(name)) ? sandbox() : undefined;
  const routed = new HarnessRouter(
    base,
    harnessExecutors(
      harnessSetup,
      (inner) => new EnvironmentExecutor(inner, environments, opts.workDir, opts.commandTimeoutMs, opts.agentEnv, recordProcessGroup, harnessSandbox, runPolicy),
      { workRoot: opts.workDir, timeoutMs: opts.commandTimeoutMs, sandbox: harnessSandbox, runPolicy, agentRunsMcp: findAgentRunsMcp() },
    ),
    harnessSetup,
    (runConfig, harness) => models.problem(runConfig, harness),
  );
  // The named secrets are masked in whatever any executor hands back.
  const mask = new SecretMask(config.secrets.values());
  // Every run's budget is held by one wrapper, whichever executor does its work.
  const budgeted = new BudgetedExecutor(routed);
  // Always wrapped: each execution's run token is masked even where the configuration declares no secret.
  const executor = new MaskedExecutor(budgeted, mask);
  return { executor, harnessSetup, models };
}

function makeExecutor(
  options: ExecutorOptions,
  environments: EnvironmentRegistry,
  recordProcessGroup: (runId: string, group: ProcessGroupRecord) => void,
  sandbox: () => AgentSandbox,
  runPolicy: (run: RunRecord) => RunPolicy,
): RunExecutor {
  if (options.executor === 'command') {
    const command = new CommandExecutor({ command: options.command!, workRoot: options.workDir, timeoutMs: options.commandTimeoutMs, agentEnv: options.agentEnv, sandbox: sandbox(), runPolicy });
    return new EnvironmentExecutor(command, environments, options.workDir, options.commandTimeoutMs, options.agentEnv, recordProcessGroup, sandbox(), runPolicy);
  }
  return new SimulatedExecutor(options.simulatedDurationMs);
}

/** How agents start, decided (and logged) once, when this process runs agents at all: a command, or a harness whose CLI it found. */
function agentSandbox(options: ExecutorOptions, config: ServerConfig, principals: readonly string[]): () => AgentSandbox {
  let chosen: AgentSandbox | undefined;
  return () => {
    if (!chosen) {
      chosen = sandboxFor(options, config);
      options.log(chosen.description);
      checkPrincipalUsers(chosen, principals);
      const warning = bareAgentsWarning(chosen, principals);
      if (warning) options.log(warning);
    }
    return chosen;
  };
}
