import type { RequestUsage, RunBudget, RunStatusMessage } from '@agent-runs/core/contract';
import { budgetReached, budgetStopMessage, durationReached } from './budget-stop.js';
import type { Execution, ExecutionContext, ExecutionOutcome, FollowedExecution, RunExecutor } from './run-executor.js';
import { WrappingExecutor } from './wrapping-executor.js';

/**
 * Holds every execution to its run's `agent_config.budget`: the usage a harness reports is
 * checked as each update arrives (not as it is stored), and the execution's wall time
 * against `max_duration_seconds`. At a cap the agent is stopped at once and the execution
 * ends BLOCKED, its status message saying what was spent against which cap. A run already
 * at a cap (a follow-up that did not raise it) is BLOCKED again without starting its agent.
 * An execution a restarted worker follows again is held the same way, its wall time counted
 * from the execution's start.
 */
export class BudgetedExecutor extends WrappingExecutor {
  constructor(
    inner: RunExecutor,
    private readonly now: () => number = Date.now,
    /** Whether the wall time is held here; false where the inner executor's own deadline holds it (a Job's activeDeadlineSeconds). */
    private readonly holdsDuration = true,
  ) {
    super(inner);
  }

  start(context: ExecutionContext): Execution {
    const budget = context.run.agentConfig.budget;
    if (!budget) return this.inner.start(context);
    // A server refuses at create a cap its own agent cannot be held to; a run sent to a worker
    // meets the worker's agent only here, where an explicit cap and a configured default look
    // alike (and a default is no fault of the run's). It runs, and its output says which caps
    // nothing here can reach.
    const unheld = (this.inner.checkConfig?.(context.run.agentConfig, undefined) ?? []).filter((issue) => issue.path.startsWith('agent_config.budget.'));
    for (const issue of unheld) context.onOutput(`[agent-runs] ${issue.path} cannot be held here: ${issue.message}\n`, 'stderr');
    const already = budgetReached(budget, context.run.requestUsage);
    if (already) return { done: Promise.resolve({ state: 'BLOCKED', statusMessage: budgetStopMessage(already) }), cancel: async () => {} };
    return this.hold(budget, this.now(), context, (held) => this.inner.start(held));
  }

  override followAgain(followed: FollowedExecution): Execution {
    if (!followed.budget) return super.followAgain(followed);
    // Held here, then on down to the executor that follows it (its backend).
    return this.hold(followed.budget, followed.startedAt, followed.sinks, (sinks) => super.followAgain({ ...followed, sinks }));
  }

  /** `begin` with its usage checked against the budget as it comes, and its wall time from `startedAt`: stopped and BLOCKED at a cap. */
  private hold<S extends Pick<ExecutionContext, 'onUsage'>>(budget: RunBudget, startedAt: number, sinks: S, begin: (sinks: S) => Execution): Execution {
    let stopped: RunStatusMessage | undefined;
    let execution: Execution | undefined;
    let stopping: Promise<void> | undefined;
    const stop = (spent: string) => {
      if (stopped) return;
      stopped = budgetStopMessage(spent);
      stopping = execution ? execution.cancel() : undefined;
    };
    const onUsage = (usage: RequestUsage) => {
      sinks.onUsage?.(usage);
      const spent = budgetReached(budget, usage);
      if (spent) stop(spent);
    };
    const timer =
      budget.max_duration_seconds === undefined || !this.holdsDuration
        ? undefined
        : setTimeout(() => stop(durationReached(budget, this.now() - startedAt)), Math.max(0, startedAt + budget.max_duration_seconds * 1000 - this.now()));
    timer?.unref();
    execution = begin({ ...sinks, onUsage });
    // Reached before begin returned (a first usage update already over the cap): stopped now.
    if (stopped && !stopping) stopping = execution.cancel();
    const done = execution.done.then(async (outcome): Promise<ExecutionOutcome> => {
      if (timer) clearTimeout(timer);
      if (!stopped) return outcome;
      await stopping?.catch(() => {});
      return { ...outcome, state: 'BLOCKED', statusMessage: stopped };
    });
    return {
      ...execution,
      done,
      cancel: async () => {
        if (timer) clearTimeout(timer);
        await execution!.cancel();
      },
    };
  }
}
