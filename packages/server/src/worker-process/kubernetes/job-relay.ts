import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { formatIssues } from '@agent-runs/core/contract';
import { MAX_JOB_BODY_BYTES } from './job-limits.js';
import type { ReceivedFiles } from './job-files.js';
import { FOLLOWUP_WAIT_MS, type FollowupQueue } from './followup-queue.js';
import { JobEndSchema, JobOutputSchema, JobStateSchema, type JobEnd, type JobOutput, type JobState } from './job-protocol.js';
import { isEntrypointToken } from './entrypoint-token.js';
import { listenOn } from '../listen-on.js';

/** A run whose Job reports here: the claim its token is made from, and where what it sends goes. */
export interface RelayedRun {
  claim: string;
  output(body: JobOutput): void;
  /** Resolves once the end is taken in (the entrypoint exits after the answer). */
  end(body: JobEnd): Promise<void>;
  /** A harness's state while it runs (usage, session id). */
  state?(body: JobState): void;
  /** The entrypoint is still there, with nothing to say (its agent is quiet): it asks whether the run still runs here. */
  alive?(): void;
  /** The files its entrypoint sends back (`POST /runs/{runId}/files?path=…`), handed on with its end. */
  files?: ReceivedFiles;
  /**
   * A follow-up's `changes.patch` files, oldest first, which its entrypoint fetches
   * (`GET /runs/{runId}/patches/{index}`) to make the run's working directory again; none
   * when followed again after a restart (the server handed them to the worker before it).
   */
  patches?: readonly Buffer[];
  /** The follow-ups sent to the run while it runs, which its entrypoint fetches (`GET /runs/{runId}/followups?after=<id>`) for its agent. */
  followups?: FollowupQueue;
}

const PATH = /^\/runs\/([A-Za-z0-9_-]{1,100})\/(output|end|alive|files|state|followups|patches\/\d{1,4})$/;
/** A follow-up's id, as the entrypoint names the last one it has. */
const FOLLOWUP_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * `--job-listen`: where the Jobs' entrypoints report to this worker. Each request names its
 * run and carries that run's token; the worker relays what it takes through the run's
 * reporter, under the run's lease, as for a local agent. Until the runs of a restart are
 * followed again, a run not known here is answered 503 (the entrypoint tries again); after,
 * 410 (the run is over here: the entrypoint stops its agent).
 */
export class JobRelay {
  private readonly runs = new Map<string, RelayedRun>();
  private ready = false;
  private server: Server | undefined;

  constructor(private readonly workerToken: string) {}

  attach(runId: string, run: RelayedRun): void {
    this.runs.set(runId, run);
  }

  detach(runId: string, run: RelayedRun): void {
    if (this.runs.get(runId) === run) this.runs.delete(runId);
  }

  /** Every run of a restart is followed again: an unknown run is over. */
  markReady(): void {
    this.ready = true;
  }

  async listen(address: { host: string; port: number }): Promise<{ host: string; port: number }> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    return { host: address.host, port: await listenOn(server, address) };
  }

  close(): void {
    this.server?.close();
    this.server?.closeAllConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, text: string) => {
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(`${text}\n`);
    };
    const [pathname, query] = (req.url ?? '/').split('?', 2) as [string, string | undefined];
    const match = PATH.exec(pathname);
    if (!match) return answer(404, 'not found');
    const [, runId, route] = match as unknown as [string, string, string];
    const patch = route.startsWith('patches/') ? Number(route.slice('patches/'.length)) : undefined;
    if (req.method !== (patch === undefined && route !== 'followups' ? 'POST' : 'GET')) return answer(405, 'method not allowed');
    const kind = route as 'output' | 'end' | 'alive' | 'files' | 'state';
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return answer(401, 'the run token is missing (Authorization: Bearer <token>)');
    const run = this.runs.get(runId);
    if (!run) return this.ready ? answer(410, 'this run is not running here') : answer(503, 'the worker is starting; try again');
    if (!isEntrypointToken(bearer, this.workerToken, runId, run.claim)) return answer(403, 'the token is not this run\'s');
    if (patch !== undefined) return this.givePatch(res, run, patch, answer);
    if (route === 'followups') return this.giveFollowups(res, run, new URLSearchParams(query ?? '').get('after'), answer);
    if (kind === 'files') return this.takeFile(req, run, new URLSearchParams(query ?? '').get('path'), answer);
    let text: string;
    try {
      text = (await readBody(req, MAX_JOB_BODY_BYTES)).toString('utf8');
    } catch (error) {
      return answer(413, (error as Error).message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return answer(400, 'the body is not JSON');
    }
    if (kind === 'alive') {
      run.alive?.();
      return answer(204, '');
    }
    if (kind === 'output') {
      const parsed = JobOutputSchema.safeParse(json);
      if (!parsed.success) return answer(400, formatIssues(parsed.error).join("; "));
      run.output(parsed.data);
      return answer(204, '');
    }
    if (kind === 'state') {
      const parsed = JobStateSchema.safeParse(json);
      if (!parsed.success) return answer(400, formatIssues(parsed.error).join('; '));
      run.state?.(parsed.data);
      return answer(204, '');
    }
    const parsed = JobEndSchema.safeParse(json);
    if (!parsed.success) return answer(400, formatIssues(parsed.error).join("; "));
    await run.end(parsed.data);
    answer(204, '');
  }

  /** One of a follow-up's patches, its bytes the body. */
  private givePatch(res: ServerResponse, run: RelayedRun, index: number, answer: (status: number, text: string) => void): void {
    const patch = run.patches?.[index];
    if (!run.patches) return answer(404, 'this worker holds no patches of the run (it restarted since the run was handed to it)');
    if (!patch) return answer(404, `the run has ${run.patches.length} patch(es); there is no patch ${index}`);
    res.writeHead(200, { 'content-type': 'text/x-diff', 'content-length': patch.length, 'cache-control': 'no-store' }).end(patch);
  }

  /**
   * The follow-ups queued for the run after the one named `after` (the last its entrypoint
   * has), as JSON `{ "followups": [...] }`; with none queued, the answer waits for one (a
   * long poll, FOLLOWUP_WAIT_MS at most). 410 once the execution is over here.
   */
  private async giveFollowups(res: ServerResponse, run: RelayedRun, after: string | null, answer: (status: number, text: string) => void): Promise<void> {
    if (!run.followups) return answer(404, 'this run takes no follow-ups');
    if (after !== null && !FOLLOWUP_ID.test(after)) return answer(400, 'after: must be a follow-up id (letters, digits, _ and -, 100 at most)');
    // The entrypoint gone (its agent ended, the connection dropped): its wait ends with it.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const followups = await run.followups.take(after ?? undefined, FOLLOWUP_WAIT_MS, gone.signal);
    if (gone.signal.aborted) return;
    if (followups === 'closed') return answer(410, 'this run is not running here');
    const body = JSON.stringify({ followups });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' }).end(body);
  }

  /** One file of the artifacts directory, its bytes the body, its path (relative to that directory) in the query. */
  private async takeFile(req: IncomingMessage, run: RelayedRun, path: string | null, answer: (status: number, text: string) => void): Promise<void> {
    if (!run.files) return answer(404, 'this run takes no files');
    if (path === null) return answer(400, 'path: the query names no file path (files?path=<the file\'s path in the artifacts directory>)');
    let content: Buffer;
    try {
      content = await readBody(req, run.files.limits.max_file_bytes);
    } catch (error) {
      return answer(413, (error as Error).message);
    }
    const refused = run.files.take(path, content);
    if (refused) return answer(refused.status, `path: ${refused.message}`);
    answer(204, '');
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error(`the body is larger than ${limit} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
