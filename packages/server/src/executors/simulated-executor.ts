import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';
import { parseSimulateDirective, type SimulateDirective } from './simulate-directive.js';
import { parseArtifactDirectives, simulatedArtifact } from './simulated-artifacts.js';

const DEFAULT_DURATION_MS = 3000;

function outcomeOf(directive: SimulateDirective, durationMs: number, answering: boolean): ExecutionOutcome {
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
      return {
        state: 'SUCCEEDED',
        statusMessage: { message: answering ? `The simulated agent answered the follow-up in ${durationMs} ms.` : `The simulated agent finished in ${durationMs} ms.` },
      };
  }
}

/**
 * A stand-in for an agent, for demos and tests: it waits, then ends as the prompt's
 * `[simulate ...]` directive says (succeed by default; `hang` runs until cancelled) and
 * makes the artifacts `[simulate artifact ...]` names. An execution that answers a
 * follow-up takes its directives from the newest follow-up instead of the prompt.
 */
export class SimulatedExecutor implements RunExecutor {
  readonly name = 'simulated';

  constructor(private readonly defaultDurationMs = DEFAULT_DURATION_MS) {}

  check(text: string, field = 'prompt'): string[] {
    return [...parseSimulateDirective(text, field).problems, ...parseArtifactDirectives(text, field).problems];
  }

  start({ run, input, onOutput }: ExecutionContext): Execution {
    const answering = input.followups.at(-1);
    const text = answering?.message ?? run.prompt;
    const { directive } = parseSimulateDirective(text);
    const artifacts = parseArtifactDirectives(text).kinds.map((kind) => simulatedArtifact(kind, run.id, input.number));
    const durationMs = directive.durationMs ?? this.defaultDurationMs;
    onOutput(`[simulated agent] This is a simulated run, not a real agent.\n`);
    onOutput(answering ? `[simulated agent] Answering a follow-up (execution ${input.number}).\n` : `[simulated agent] Working on: ${run.title}\n`);
    let timer: NodeJS.Timeout | undefined;
    let finish: (outcome: ExecutionOutcome) => void = () => {};
    const done = new Promise<ExecutionOutcome>((resolve) => {
      finish = resolve;
      if (directive.outcome === 'hang') {
        onOutput('[simulated agent] Asked to hang: running until cancelled.\n');
        return;
      }
      timer = setTimeout(() => {
        const outcome = outcomeOf(directive, durationMs, answering !== undefined);
        onOutput(`[simulated agent] Done: ${outcome.state}.\n`);
        resolve({ ...outcome, artifacts });
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
