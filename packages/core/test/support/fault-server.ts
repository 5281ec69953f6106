/**
 * A real HTTP server on a loopback port that speaks just enough of the Runs API for the
 * client's tests, and injects faults on demand: errors with Retry-After, resets before or
 * after handling, slow answers, malformed JSON, HTML pages.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown; raw?: string }
  | { kind: 'reset-before' }
  | { kind: 'reset-after' }
  | { kind: 'delay'; ms: number }
  | { kind: 'raw'; status: number; contentType: string; text: string; headers?: Record<string, string> };

interface FaultRule {
  match: (req: RecordedRequest) => boolean;
  fault: Fault;
}

export interface StoredRun extends Record<string, unknown> {
  run_id: string;
  state: string;
}

export interface FaultServer {
  baseURL: string;
  requests: RecordedRequest[];
  runs: StoredRun[];
  /** Applies `fault` to the next request `match` accepts (once). */
  inject(fault: Fault, match?: (req: RecordedRequest) => boolean): void;
  /** The states successive GETs of a run will see; the last one sticks. */
  script(runId: string, states: Array<string | Record<string, unknown>>, headers?: Record<string, string>): void;
  addRuns(count: number): void;
  close(): Promise<void>;
}

function problem(status: number, code: string, detail: string, retryable = false) {
  return {
    type: `https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/${code}`,
    title: code,
    status,
    detail,
    error: `${code}: ${detail}`,
    retryable,
  };
}

function makeRun(prompt: string | undefined, n: number): StoredRun {
  const id = randomUUID();
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return { run_id: id, task_id: id, title: (prompt ?? "skill run").slice(0, 40), state: "QUEUED", prompt: prompt ?? "", created_at: at, updated_at: at };
}

export async function startFaultServer(): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  const runs: StoredRun[] = [];
  const rules: FaultRule[] = [];
  const scripts = new Map<string, { steps: Array<Record<string, unknown>>; headers?: Record<string, string> }>();
  const byKey = new Map<string, StoredRun>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = (rec: RecordedRequest, res: ServerResponse) => {
    if (rec.headers.authorization !== 'Bearer test-key') {
      return send(res, 401, problem(401, 'authentication_required', 'A valid API key is required.'));
    }
    if (rec.method === 'POST' && (rec.path === '/api/v1/agent/run' || rec.path === '/api/v1/agent/runs')) {
      const key = rec.headers['idempotency-key'] as string | undefined;
      const existing = key ? byKey.get(key) : undefined;
      if (existing) return send(res, 200, { run_id: existing.run_id, task_id: existing.run_id, state: existing.state });
      const body = JSON.parse(rec.body) as { prompt?: string };
      const run = makeRun(body.prompt, runs.length);
      runs.push(run);
      if (key) byKey.set(key, run);
      return send(res, 200, { run_id: run.run_id, task_id: run.run_id, state: run.state });
    }
    if (rec.method === 'GET' && rec.path === '/api/v1/agent/runs') {
      const limit = Number(rec.query.get('limit') ?? 20);
      const start = Number(rec.query.get('cursor') ?? 0);
      const page = runs.slice(start, start + limit);
      const next = start + limit < runs.length;
      return send(res, 200, {
        runs: page,
        page_info: { has_next_page: next, ...(next ? { next_cursor: String(start + limit) } : {}) },
      });
    }
    const one = /^\/api\/v1\/agent\/runs\/([^/]+)(\/cancel)?$/.exec(rec.path);
    const run = one ? runs.find((r) => r.run_id === decodeURIComponent(one[1]!)) : undefined;
    if (one && !run) return send(res, 404, problem(404, 'resource_not_found', `No run ${one[1]}.`));
    if (run && rec.method === 'POST' && one?.[2]) {
      run.state = 'CANCELLED';
      return send(res, 200, run.run_id);
    }
    if (run && rec.method === 'GET') {
      const script = scripts.get(run.run_id);
      if (script) {
        const step = script.steps.length > 1 ? script.steps.shift()! : script.steps[0]!;
        Object.assign(run, step);
        return send(res, 200, run, script.headers);
      }
      return send(res, 200, run);
    }
    return send(res, 404, problem(404, 'resource_not_found', `No route ${rec.method} ${rec.path}.`));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(rec);
      const i = rules.findIndex((r) => r.match(rec));
      const fault = i >= 0 ? rules.splice(i, 1)[0]!.fault : undefined;
      if (!fault) return handle(rec, res);
      switch (fault.kind) {
        case 'status':
          if (fault.raw !== undefined) {
            res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
            return res.end(fault.raw);
          }
          return send(res, fault.status, fault.body ?? problem(fault.status, 'internal_error', 'Injected.', true), fault.headers);
        case 'raw':
          res.writeHead(fault.status, { 'content-type': fault.contentType, ...fault.headers });
          return res.end(fault.text);
        case 'reset-before':
          return req.socket.destroy();
        case 'reset-after': {
          // Do the work, then lose the answer: the client never learns the run exists.
          const sink = { writeHead: () => sink, end: () => req.socket.destroy() } as unknown as ServerResponse;
          return handle(rec, sink);
        }
        case 'delay':
          return void setTimeout(() => !res.destroyed && handle(rec, res), fault.ms);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/api/v1`,
    requests,
    runs,
    inject(fault, match = () => true) {
      rules.push({ fault, match });
    },
    script(runId, states, headers) {
      scripts.set(runId, { steps: states.map((s) => (typeof s === 'string' ? { state: s } : s)), ...(headers ? { headers } : {}) });
    },
    addRuns(count) {
      for (let i = 0; i < count; i++) runs.push(makeRun(`seeded run ${runs.length}`, runs.length));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
