import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/**
 * One HTTP request with exactly the headers given (fetch would add or refuse some, such as
 * Host); no Content-Type is sent unless given.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; localAddress?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, timeout: options.timeoutMs ?? 10_000, localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
