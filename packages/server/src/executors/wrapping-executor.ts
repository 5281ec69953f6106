import type { Execution, ExecutionContext, FollowedExecution, RunExecutor } from './run-executor.js';

/**
 * An executor that wraps another's executions (masking what they hand back, holding them to a
 * budget): its name and checks are the inner executor's, only `start` is its own; an
 * execution followed again passes through to the inner executor unless it holds it too.
 */
export abstract class WrappingExecutor implements RunExecutor {
  readonly name: string;

  constructor(protected readonly inner: RunExecutor) {
    this.name = inner.name;
  }

  check(prompt: string, field?: string): string[] {
    return this.inner.check?.(prompt, field) ?? [];
  }

  checkConfig(...args: Parameters<NonNullable<RunExecutor['checkConfig']>>) {
    return this.inner.checkConfig?.(...args) ?? [];
  }

  followAgain(followed: FollowedExecution): Execution {
    return this.inner.followAgain ? this.inner.followAgain(followed) : followed.begin(followed.sinks);
  }

  abstract start(context: ExecutionContext): Execution;
}
