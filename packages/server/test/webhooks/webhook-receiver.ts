import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, any> };
  at: number;
}

/** What the receiver answers to one request: a status, and headers such as Retry-After; `hang` never answers. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface WebhookReceiver {
  url: string;
  /** Every request, in the order they came (failed attempts included). */
  received: ReceivedWebhook[];
  /** Those answered 2xx. */
  accepted: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A real HTTP receiver on a loopback port; `answer` decides each reply (200 by default). */
export async function startReceiver(answer: (request: ReceivedWebhook, index: number) => Answer = () => ({ status: 200 })): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const accepted: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedWebhook = { headers: req.headers, body, event: JSON.parse(body), at: Date.now() };
      received.push(request);
      const reply = answer(request, received.length - 1);
      if (reply === 'hang') return;
      if (reply.status >= 200 && reply.status < 300) accepted.push(request);
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
