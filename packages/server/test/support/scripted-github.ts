import { createVerify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** Answers as GitHub does to `POST /repos/:owner/:repo/pulls`: 201, or the scripted refusal. */
export type GithubAnswer = { status: 201; number: number; /** Answers after this long (a slow GitHub). */ delayMs?: number } | { status: 401 | 422; message: string; errors?: { message: string }[] };

/**
 * A GitHub App as GitHub knows it: its id, the public half of its key (a JWT it signs is
 * checked with it), its installation, and the installation token `token` it mints.
 */
export interface ScriptedApp {
  id: number;
  publicKey: KeyObject;
  installationId: number;
}

/**
 * A GitHub REST API on loopback: checks the token header, records each request, answers a pull
 * request as scripted and takes comments on one. With `app`, `token` is the installation token
 * the App's JWT (checked against its public key) mints at `POST /app/installations/:id/access_tokens`.
 */
export async function scriptedGithub(token: string, answer: GithubAnswer, app?: ScriptedApp): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const text = await readAll(req);
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(json));
    };
    if (app && (req.url === `/app/installations/${app.installationId}/access_tokens` || /^\/repos\/[^/]+\/[^/]+\/installation$/.test(req.url ?? ''))) {
      if (!appJwtValid(req.headers.authorization, app)) return send(401, { message: 'A JSON web token could not be decoded' });
      if (req.method === 'GET') return send(200, { id: app.installationId, app_id: app.id });
      return send(201, { token, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: { contents: 'write', pull_requests: 'write' }, repository_selection: 'selected' });
    }
    if (req.headers.authorization !== `token ${token}` && req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const comment = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.url ?? '');
    if (req.method === 'POST' && comment) return send(201, { id: seen.length, html_url: `https://github.com/${comment[1]}/${comment[2]}/pull/${comment[3]}#issuecomment-${seen.length}` });
    const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return send(404, { message: 'Not Found' });
    if (answer.status === 201 && answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (answer.status === 201) return send(201, { number: answer.number, html_url: `https://github.com/${match[1]}/${match[2]}/pull/${answer.number}`, state: 'open' });
    return send(answer.status, { message: answer.message, errors: answer.errors, documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Whether `Bearer <jwt>` is an RS256 JWT of the App (iss its id), signed by its key and not expired. */
function appJwtValid(authorization: string | undefined, app: ScriptedApp): boolean {
  const jwt = /^(?:Bearer|bearer) (.+)$/.exec(authorization ?? '')?.[1];
  const [header, payload, signature] = jwt?.split('.') ?? [];
  if (!header || !payload || !signature) return false;
  const verify = createVerify('RSA-SHA256');
  verify.update(`${header}.${payload}`);
  if (!verify.verify(app.publicKey, Buffer.from(signature, 'base64url'))) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number };
  return String(claims.iss) === String(app.id) && typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
}
