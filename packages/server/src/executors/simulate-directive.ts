import { readDuration } from '@agent-runs/core/contract';

export type SimulatedOutcome = 'succeed' | 'fail' | 'error' | 'block' | 'hang';

export interface SimulateDirective {
  outcome: SimulatedOutcome;
  /** Undefined: the executor's default duration. */
  durationMs?: number;
}

const OUTCOMES: readonly SimulatedOutcome[] = ['succeed', 'fail', 'error', 'block', 'hang'];
// `[simulate artifact ...]` is a directive of its own (simulated-artifacts.ts).
const DIRECTIVE = /\[simulate\b(?!\s+artifact\b)([^\]]*)\]/i;

export const SIMULATE_HINT = `[simulate ...] takes words among ${OUTCOMES.join(', ')} and a duration such as 300ms or 2s`;

/**
 * Reads `[simulate fail 200ms]` from a prompt. Returns the directive, or the problems
 * with it so that the create can be refused naming them.
 */
export function parseSimulateDirective(prompt: string, field = 'prompt'): { directive: SimulateDirective; problems: string[] } {
  const directive: SimulateDirective = { outcome: 'succeed' };
  const problems: string[] = [];
  const match = DIRECTIVE.exec(prompt);
  if (!match) return { directive, problems };
  for (const word of match[1]!.trim().split(/\s+/).filter(Boolean)) {
    const lower = word.toLowerCase();
    if ((OUTCOMES as readonly string[]).includes(lower)) {
      directive.outcome = lower as SimulatedOutcome;
      continue;
    }
    if (/^\d/.test(lower)) {
      // Bounded like every other duration: a longer timer would fire at once.
      const reading = readDuration(lower);
      if (reading.ms !== undefined) {
        directive.durationMs = reading.ms;
        continue;
      }
      problems.push(`${field}: the simulate directive's duration ${reading.problem}`);
      continue;
    }
    problems.push(`${field}: unknown word "${word}" in the simulate directive; ${SIMULATE_HINT}`);
  }
  return { directive, problems };
}
