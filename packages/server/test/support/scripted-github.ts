import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** Answers as GitHub does to `POST /repos/:owner/:repo/pulls`: 201, or the scripted refusal. */
export type GithubAnswer = { status: 201; number: number } | { status: 401 | 422; message: string; errors?: { message: string }[] };

/** A GitHub REST API on loopback: checks the token header, records each request, answers a pull request as scripted and takes comments on one. */
export async function scriptedGithub(token: string, answer: GithubAnswer): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const text = await readAll(req);
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `token ${token}` && req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const comment = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.url ?? '');
    if (req.method === 'POST' && comment) return send(201, { id: seen.length, html_url: `https://github.com/${comment[1]}/${comment[2]}/pull/${comment[3]}#issuecomment-${seen.length}` });
    const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return send(404, { message: 'Not Found' });
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
