import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';
import { parseSimulateDirective, type SimulateDirective } from './simulate-directive.js';

const DEFAULT_DURATION_MS = 3000;

function outcomeOf(directive: SimulateDirective, durationMs: number): ExecutionOutcome {
  const label = `[simulate ${directive.outcome}]`;
  switch (directive.outcome) {
    case 'fail':
      return {
        state: 'FAILED',
        statusMessage: { message: `The simulated agent failed, as ${label} asked.`, error_code: 'internal_error', retryable: false },
      };
    case 'error':
      return {
        state: 'ERROR',
        statusMessage: { message: `The simulated agent hit an error, as ${label} asked.`, error_code: 'internal_error', retryable: true },
      };
    case 'block':
      return {
        state: 'BLOCKED',
        statusMessage: { message: `The simulated agent is blocked and needs a person, as ${label} asked.` },
      };
    default:
      return { state: 'SUCCEEDED', statusMessage: { message: `The simulated agent finished in ${durationMs} ms.` } };
  }
}

/**
 * A stand-in for an agent, for demos and tests: it waits, then ends as the prompt's
 * `[simulate ...]` directive says (succeed by default; `hang` runs until cancelled).
 */
export class SimulatedExecutor implements RunExecutor {
  readonly name = 'simulated';

  constructor(private readonly defaultDurationMs = DEFAULT_DURATION_MS) {}

  check(prompt: string): string[] {
    return parseSimulateDirective(prompt).problems;
  }

  start({ run, onOutput }: ExecutionContext): Execution {
    const { directive } = parseSimulateDirective(run.prompt);
    const durationMs = directive.durationMs ?? this.defaultDurationMs;
    onOutput(`[simulated agent] This is a simulated run, not a real agent.\n`);
    onOutput(`[simulated agent] Working on: ${run.title}\n`);
    let timer: NodeJS.Timeout | undefined;
    let finish: (outcome: ExecutionOutcome) => void = () => {};
    const done = new Promise<ExecutionOutcome>((resolve) => {
      finish = resolve;
      if (directive.outcome === 'hang') {
        onOutput('[simulated agent] Asked to hang: running until cancelled.\n');
        return;
      }
      timer = setTimeout(() => {
        const outcome = outcomeOf(directive, durationMs);
        onOutput(`[simulated agent] Done: ${outcome.state}.\n`);
        resolve(outcome);
      }, durationMs);
    });
    return {
      done,
      cancel: async () => {
        clearTimeout(timer);
        onOutput('[simulated agent] Cancelled.\n');
        finish({ state: 'FAILED', statusMessage: { message: 'Cancelled.' } });
      },
    };
  }
}
