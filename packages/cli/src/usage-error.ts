/** A mistake in how the command was called; exits 2 and points at `--help`. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    /** The command whose help to point at; undefined for the top level. */
    readonly command?: string,
  ) {
    super(message);
  }
}
