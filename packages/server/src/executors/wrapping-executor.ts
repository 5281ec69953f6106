import type { Execution, ExecutionContext, RunExecutor } from './run-executor.js';

/**
 * An executor that wraps another's executions (masking what they hand back, holding them to a
 * budget): its name and checks are the inner executor's, only `start` is its own.
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

  abstract start(context: ExecutionContext): Execution;
}
