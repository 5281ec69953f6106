import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { visibleText, type WebhookEventType } from '@agent-runs/core';
import type { CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';

/** The most of a delivery the listener takes, and how long the app forwarded to may take. */
const MAX_BODY_BYTES = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        resolve(undefined);
      } else parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', () => resolve(undefined));
  });
}

/** POSTs the delivery, body and webhook-* headers unchanged, so the app verifies it with the printed secret. */
function forward(target: URL, headers: Record<string, string>, body: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': body.length }, timeout: FORWARD_TIMEOUT_MS });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 502);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${FORWARD_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve(error.message));
    req.end(body);
  });
}

/**
 * `webhooks listen --forward-to URL`: a receiver on a loopback port, subscribed for as long
 * as it runs (the server must allow private webhooks: a local server for development), that
 * hands every delivery to the app at URL and answers the server with the app's status.
 */
export async function listenAndForward(ctx: CommandContext, forwardTo: string | undefined, events: WebhookEventType[] | undefined, port: number): Promise<number> {
  if (!forwardTo || !URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) {
    throw new UsageError('"webhooks listen" needs --forward-to <url>, an http(s) URL of your app, e.g. http://localhost:3000/webhooks.', 'webhooks');
  }
  const target = new URL(forwardTo);
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      if (!body) {
        res.writeHead(413).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let type = '?';
      try {
        type = String((JSON.parse(body.toString('utf8')) as { type?: unknown }).type);
      } catch {
        // Shown as "?": the app gets it as it came.
      }
      const status = await forward(target, headers, body);
      ctx.io.stdout.write(`${visibleText(new Date().toISOString())}  ${visibleText(type).padEnd(22)}  ${visibleText(headers['webhook-id'] ?? '')}  → ${visibleText(String(status))}\n`);
      res.writeHead(typeof status === 'number' ? status : 502).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  const client = ctx.client();
  let hookId: string | undefined;
  try {
    const hook = await client.webhooks.create({ url: `http://127.0.0.1:${bound}/`, ...(events ? { event_types: events } : {}), description: `agent-runs webhooks listen → ${forwardTo}` });
    hookId = hook.id;
    ctx.io.stderr.write(
      `Forwarding webhooks to ${visibleText(forwardTo)} (webhook ${visibleText(hook.id)}).\nSigning secret for your app: ${hook.secret ?? ''}\nPress Ctrl-C to stop; the subscription is then deleted.\n`,
    );
    await new Promise<void>((resolve) => {
      const stopInterrupt = ctx.io.onInterrupt(() => {
        stopInterrupt();
        process.removeListener('SIGTERM', onTerm);
        resolve();
      });
      const onTerm = () => {
        stopInterrupt();
        resolve();
      };
      process.once('SIGTERM', onTerm);
    });
    return EXIT.OK;
  } finally {
    if (hookId) await client.webhooks.delete(hookId).catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
