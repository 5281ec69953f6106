import { GLOBAL_FLAGS } from './flag-spec.js';

/** Global flags that take a value, so that the value is not taken for the command name. */
const GLOBAL_VALUE_FLAGS = Object.entries(GLOBAL_FLAGS)
  .filter(([, spec]) => spec.type === 'string')
  .map(([name]) => `--${name}`);

/**
 * The command name and the arguments around it. The command decides which flags exist,
 * so this finds it (the first argument that is neither a flag nor a global flag's value)
 * and leaves every flag to be parsed once, against that command's specs.
 */
export function splitCommand(argv: readonly string[]): { name: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) return { name: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    if (GLOBAL_VALUE_FLAGS.includes(arg)) i++;
  }
  return { name: undefined, rest: [...argv] };
}
