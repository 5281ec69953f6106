import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web Request for the SDK's fetch-shaped handlers, with the body already read and bounded; aborted when the client goes. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  // The Host header was checked by the guard; the URL only needs to parse.
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Writes a web Response (JSON or an SSE stream) to Node's response, stopping when the client goes. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // Sent at once: an SSE stream's first bytes may be a long way off.
  res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, 'drain');
    }
  } catch {
    // The client went, or the stream was cancelled: nothing left to send.
  } finally {
    res.end();
  }
}
