import { describeIssues, nameIssues, type IssueNames, type ValidationIssue } from '../contract/format-issues.js';
import { AgentRunsError } from './agent-runs-error.js';

/** A request that does not satisfy the contract; nothing was sent. */
export class RequestValidationError extends AgentRunsError {
  override name = 'RequestValidationError';
  /** What was being validated, e.g. `run request`. */
  readonly what: string;
  /** Each problem: the field (`config.mcp_servers.gh`, '' for the whole value) and what would be valid. */
  readonly issues: readonly ValidationIssue[];
  /** The same problems as lines, `config.mcp_servers.gh: must have exactly one of …`. */
  readonly lines: readonly string[];

  constructor(what: string, issues: readonly ValidationIssue[]) {
    const lines = describeIssues(issues, what);
    super(`Invalid ${what}: ${lines.join('; ')}`);
    this.what = what;
    this.issues = issues;
    this.lines = lines;
  }

  /** The same error with paths renamed to an adapter's names (flags, inputs, tool arguments). */
  withNames(names: IssueNames): RequestValidationError {
    return new RequestValidationError(this.what, nameIssues(this.issues, names));
  }
}

/**
 * `error` with its issues renamed when it is a RequestValidationError, else unchanged:
 * `client.runs.create(body).catch((e) => { throw withIssueNames(e, FLAGS) })`.
 */
export function withIssueNames(error: unknown, names: IssueNames): unknown {
  return error instanceof RequestValidationError ? error.withNames(names) : error;
}

/** The client's own options are unusable (a bad base URL, a key over plain http). */
export class ClientConfigError extends AgentRunsError {
  override name = 'ClientConfigError';
}
