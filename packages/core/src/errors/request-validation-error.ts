import { AgentRunsError } from './agent-runs-error.js';

/** A request that does not satisfy the contract; nothing was sent. */
export class RequestValidationError extends AgentRunsError {
  override name = 'RequestValidationError';
  /** One line per problem, each naming the field, e.g. `config.mcp_servers.gh: must have exactly one of …`. */
  readonly issues: string[];
  constructor(what: string, issues: string[]) {
    super(`Invalid ${what}: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** The client's own options are unusable (a bad base URL, a key over plain http). */
export class ClientConfigError extends AgentRunsError {
  override name = 'ClientConfigError';
}
