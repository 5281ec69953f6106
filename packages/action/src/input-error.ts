/** A workflow input is missing or not valid; the message names the input and what would be valid. */
export class InputError extends Error {
  override name = 'InputError';
  /** One line per problem, each starting with the input's name. */
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? problems[0]! : `${problems.length} inputs are not valid:\n- ${problems.join('\n- ')}`);
    this.problems = problems;
  }
}
