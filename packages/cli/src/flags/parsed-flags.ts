import { UsageError } from '../usage-error.js';

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Typed access to parsed flags; values are already checked against the command's specs. */
export class ParsedFlags {
  constructor(
    readonly command: string,
    private readonly values: Values,
    readonly positionals: string[],
  ) {}

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** A string flag that, when given, must not be blank. */
  nonEmpty(name: string): string | undefined {
    const value = this.string(name);
    if (value !== undefined && value.trim() === '') {
      throw new UsageError(`--${name} needs a non-empty value.`, this.command);
    }
    return value;
  }

  bool(name: string): boolean {
    return this.values[name] === true;
  }

  list(name: string): string[] {
    const value = this.values[name];
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  }

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }
}
