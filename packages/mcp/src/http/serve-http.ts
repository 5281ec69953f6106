import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../create-mcp-server.js';
import { sendWebResponse, toWebRequest } from './web-exchange.js';
import { DEFAULT_MAX_CLIENT_STREAMS, DEFAULT_MAX_SESSION_STREAMS, DEFAULT_MAX_SESSIONS, MIN_AUTH_TOKEN_LENGTH } from './http-limits.js';
import { OpenStreams } from './open-streams.js';
import { BodyError, readJsonBody } from './read-json-body.js';
import { loopbackHosts } from '@agent-runs/core/contract';
import { checkRequest, type GuardOptions } from './request-guard.js';
import { ListenWatches } from '../resources/listen-watches.js';
import type { RunWatcher } from '../resources/run-watcher.js';
import { listenedTaskIds, undeclaredTasksError } from '../tasks/task-listens.js';
import type { TaskRegistry } from '../tasks/task-registry.js';
import { withTaskNotifications } from './task-listen-stream.js';

export const MCP_PATH = '/mcp';
/** A session without a request for this long (its GET stream aside) is closed: its client has gone without saying so. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** JSON-RPC's code for a body that is not JSON at all; -32000 is the server's own errors. */
const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

export interface HttpServeOptions {
  /** Default 127.0.0.1: reachable from this machine only. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Bearer token every request must carry; none when undefined. */
  authToken?: string | undefined;
  /** Extra Host header values to accept (`name:port`), e.g. when bound to 0.0.0.0 behind a name. */
  allowedHosts?: string[];
  /** Extra Origin values to accept (`https://app.example`). */
  allowedOrigins?: string[];
  /** A fresh MCP server for each session (2025-11-25) or request (2026-07-28). */
  createServer: (era: ProtocolEra) => McpServer;
  /** Close sessions without a request for this long, their GET stream aside. Default 30 minutes. */
  sessionIdleMs?: number;
  /** 2025-11-25 sessions held at once; an initialize past this gets 503. Default 100. */
  maxSessions?: number;
  /** Requests (listen streams included) open at once from one client address; past it, 429. Default 128. */
  maxClientStreams?: number;
  /** Requests (its GET stream included) open at once in one 2025-11-25 session; past it, 429. Default 16. */
  maxSessionStreams?: number;
  /** Follows the runs 2026-07-28 `subscriptions/listen` streams name; without one, they hear nothing of runs. */
  watcher?: RunWatcher | undefined;
  /** The process's tasks, for 2026-07-28 listen streams that name them (taskIds). */
  tasks?: TaskRegistry | undefined;
}

export interface RunningHttpServer {
  /** e.g. `http://127.0.0.1:3333/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** Posted requests still open (a long wait): the session is in use. Its GET stream is not: it only listens. */
  open: number;
  /** When the client last sent a request or one of its requests ended. */
  lastSeen: number;
}

/** Marks the session seen, and counts a posted request as open on it until its response closes. */
function trackRequest(session: Session, req: IncomingMessage, res: ServerResponse): void {
  const call = req.method === 'POST';
  if (call) session.open += 1;
  session.lastSeen = Date.now();
  res.once('close', () => {
    if (call) session.open -= 1;
    session.lastSeen = Date.now();
  });
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = SERVER_ERROR,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function positive(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got ${n}.`);
  return n;
}

function isListen(body: unknown): body is { params?: unknown } {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`, both revisions on the one endpoint, behind one
 * guard (Host/Origin, bearer token): a request without the 2026-07-28 `_meta` envelope is a
 * 2025-11-25 one, served in a session (one MCP server per session, at most `maxSessions`);
 * an enveloped one is served statelessly by a fresh MCP server for that request.
 */
export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.authToken !== undefined && options.authToken.trim().length < MIN_AUTH_TOKEN_LENGTH) {
    // An empty token would turn the check off without a word.
    throw new Error(`authToken must be at least ${MIN_AUTH_TOKEN_LENGTH} characters, or undefined for none.`);
  }
  const maxSessions = positive(options.maxSessions ?? DEFAULT_MAX_SESSIONS, 'maxSessions');
  const sessions = new Map<string, Session>();
  const streams = new OpenStreams({
    perClient: positive(options.maxClientStreams ?? DEFAULT_MAX_CLIENT_STREAMS, 'maxClientStreams'),
    perSession: positive(options.maxSessionStreams ?? DEFAULT_MAX_SESSION_STREAMS, 'maxSessionStreams'),
  });
  /** Initializations under way: counted with the sessions, so a burst cannot pass the cap. */
  let opening = 0;
  let guard: GuardOptions | undefined;

  const openSession = async (request: Request, res: ServerResponse, body: unknown): Promise<void> => {
    if (sessions.size + opening >= maxSessions) {
      return sendError(
        res,
        503,
        `Too many sessions: this server holds at most ${maxSessions} at once (--max-sessions). ` +
          'End a session you no longer use (DELETE with its mcp-session-id) or try again once idle ones expire.',
        { 'retry-after': '30' },
      );
    }
    opening += 1;
    try {
      await startSession(request, res, body);
    } finally {
      opening -= 1;
    }
  };

  const modern = createMcpHandler(() => options.createServer('modern'), { legacy: 'reject' });
  const listens = options.watcher ? new ListenWatches(options.watcher, (uri) => modern.notify.resourceUpdated(uri)) : undefined;

  const startSession = async (request: Request, res: ServerResponse, body: unknown): Promise<void> => {
    const server = options.createServer('legacy');
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, open: 0, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close().catch(() => {});
    };
    await server.connect(transport);
    await sendWebResponse(res, await transport.handleRequest(request, { parsedBody: body }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return sendError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    const rejection = checkRequest(req, guard!);
    if (rejection) return sendError(res, rejection.status, rejection.message, rejection.headers);

    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    const request = toWebRequest(req, res, body);
    const client = req.socket.remoteAddress ?? '';
    const tooMany = (refusal: string) => sendError(res, 429, refusal, { 'retry-after': '5' });
    // The revision is chosen per request, by the SDK's own classification.
    if (!(await isLegacyRequest(request, body))) {
      const refusal = streams.open(res, client);
      if (refusal) return tooMany(refusal);
      // A listen stream follows the runs it names for as long as its response is open.
      if (listens && isListen(body)) res.once('close', listens.open(body.params));
      const taskIds = options.tasks && isListen(body) ? listenedTaskIds(body.params) : undefined;
      if (taskIds) {
        const id = (body as { id?: unknown }).id;
        const refusal = undeclaredTasksError((body as { params?: unknown }).params);
        if (refusal) return sendWebResponse(res, Response.json({ jsonrpc: '2.0', id: id ?? null, error: refusal }));
        if (typeof id === 'string' || typeof id === 'number') {
          return sendWebResponse(res, withTaskNotifications(await modern.fetch(request, { parsedBody: body }), options.tasks!, taskIds, id));
        }
      }
      return sendWebResponse(res, await modern.fetch(request, { parsedBody: body }));
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return sendError(res, 404, 'Session not found: it expired or was closed; start a new one with initialize.');
      // Ending a session is always let through: it frees what the caps guard.
      const refusal = req.method === 'DELETE' ? undefined : streams.open(res, client, sessionId);
      if (refusal) return tooMany(refusal);
      trackRequest(session, req, res);
      return sendWebResponse(res, await session.transport.handleRequest(request, { parsedBody: body }));
    }
    if (req.method === 'POST' && isInitialize(body)) {
      const refusal = streams.open(res, client);
      if (refusal) return tooMany(refusal);
      return openSession(request, res, body);
    }
    return sendError(res, 400, 'Bad request: send initialize first, then the mcp-session-id header it returns.');
  };

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof BodyError) {
        return sendError(res, error.status, error.message, {}, error.status === 400 ? PARSE_ERROR : SERVER_ERROR);
      }
      sendError(res, 500, `Internal error: ${(error as Error).message}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  guard = {
    allowedHosts: [...loopbackHosts(host, port), ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())],
    allowedOrigins: options.allowedOrigins ?? [],
    authToken: options.authToken,
  };
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const session of sessions.values()) {
      if (session.open === 0 && now - session.lastSeen > idleMs) void session.transport.close().catch(() => {});
    }
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    port,
    close: async () => {
      clearInterval(sweep);
      await modern.close().catch(() => {});
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
