import type { AmbientAgentConfig, ValidationIssue } from '@agent-runs/core/contract';
import { isHarnessName, type HarnessName } from '../../domain/harness-config.js';
import type { Execution, ExecutionContext, RunExecutor } from '../run-executor.js';
import type { HarnessSetup } from './harness-setup.js';

/** The harness a run's configuration asks for: its `harness.type`, else (or for `oz`) the server's default. */
export function harnessOf(config: AmbientAgentConfig, defaultHarness: HarnessName | undefined): HarnessName | undefined {
  const type = config.harness?.type;
  if (isHarnessName(type)) return type;
  return defaultHarness;
}

/**
 * Only a harness reports usage (tokens, and cost from its own figure or the model's list
 * price); the command agent and the simulated one report none, so a cap on cost or tokens
 * could never stop them: refused at create, naming the field.
 */
function usageCapsWithoutUsage(config: AmbientAgentConfig, executor: string): ValidationIssue[] {
  const budget = config.budget;
  return (['max_cost_usd', 'max_tokens'] as const).flatMap((field) =>
    budget?.[field] === undefined
      ? []
      : [{ path: `agent_config.budget.${field}`, message: `cannot be set here: the ${executor} agent reports no usage to hold it to; only max_duration_seconds applies to it (or run a harness: agent_config.harness.type).` }],
  );
}

/**
 * Hands each run to the executor of its harness, and a run that names none (or `oz`) to the
 * server's default harness, or to the server's own executor (simulated or command) when it
 * has no default. A harness the server cannot start is refused at create, naming the field.
 */
export class HarnessRouter implements RunExecutor {
  readonly name: string;

  constructor(
    private readonly base: RunExecutor,
    private readonly harnesses: ReadonlyMap<HarnessName, RunExecutor>,
    private readonly setup: HarnessSetup,
    /** A model the catalog lists as disabled: the field and the reason, for a create's 400. */
    private readonly modelProblem: (config: AmbientAgentConfig, harness: HarnessName) => ValidationIssue | undefined = () => undefined,
  ) {
    this.name = base.name;
  }

  private executorOf(config: AmbientAgentConfig): RunExecutor {
    const harness = harnessOf(config, this.setup.defaultHarness);
    return (harness && this.harnesses.get(harness)) || this.base;
  }

  check(prompt: string, field?: string): string[] {
    return this.base.check?.(prompt, field) ?? [];
  }

  checkConfig(config: AmbientAgentConfig, principal: string | undefined): ValidationIssue[] {
    const type = config.harness?.type;
    if (type !== undefined && type !== 'oz' && !isHarnessName(type)) {
      return [{ path: 'agent_config.harness.type', message: `"${type}" is not a harness; use one of oz, claude, codex, gemini.` }];
    }
    const harness = harnessOf(config, this.setup.defaultHarness);
    if (!harness) return usageCapsWithoutUsage(config, this.base.name);
    const secretName = this.setup.secretName(harness, config);
    const problem = this.setup.problem(harness, secretName, this.setup.secretScope(config, principal));
    if (problem) {
      const path = problem.kind === 'missing-key' && secretName !== undefined ? `agent_config.harness_auth_secrets.${this.setup.driver(harness)!.authSecretField}` : 'agent_config.harness.type';
      return [{ path, message: `this server cannot run the ${harness} harness: ${problem.message}.` }];
    }
    const model = this.modelProblem(config, harness);
    return model ? [model] : [];
  }

  start(context: ExecutionContext): Execution {
    return this.executorOf(context.run.agentConfig).start(context);
  }
}
