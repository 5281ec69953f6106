import type { ServerResponse } from 'node:http';

export interface StreamLimits {
  /** Open at once from one client address. */
  perClient: number;
  /** Open at once in one 2025-11-25 session. */
  perSession: number;
}

/**
 * The requests held open (a listen stream, a session's GET stream, a call still running), by
 * client address and by session, each counted until its response closes, so one client
 * cannot hold streams without bound.
 */
export class OpenStreams {
  private readonly byClient = new Map<string, number>();
  private readonly bySession = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  /** Counts `res` as open for `client` (and `session`) until it closes; else why it may not open. */
  open(res: ServerResponse, client: string, session?: string): string | undefined {
    if ((this.byClient.get(client) ?? 0) >= this.limits.perClient) {
      return (
        `Too many open requests from this client: this server holds at most ${this.limits.perClient} at once for one address (--max-client-streams). ` +
        'Close a listen stream you no longer read, or try again once one ends.'
      );
    }
    if (session !== undefined && (this.bySession.get(session) ?? 0) >= this.limits.perSession) {
      return `Too many open requests in this session: at most ${this.limits.perSession} at once (--max-session-streams). Try again once one ends.`;
    }
    add(this.byClient, client, 1);
    if (session !== undefined) add(this.bySession, session, 1);
    res.once('close', () => {
      add(this.byClient, client, -1);
      if (session !== undefined) add(this.bySession, session, -1);
    });
    return undefined;
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
