import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The proxy variables a CLI may read, each given the recording proxy. */
export const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy'];

export interface RecordingProxy {
  url: string;
  /** Each request that reached it: `CONNECT host:port` or `METHOD url`. */
  seen: string[];
  /** The variables that make a CLI use it for everything but loopback. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback that refuses everything and notes where each request wanted to
 * go: the CLI gets it as its proxy, so anything it sends past the model server shows here.
 */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    // A client that gives up resets the socket; that is no failure of the test.
    socket.on('error', () => {});
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    seen,
    env: { ...Object.fromEntries(PROXY_VARIABLES.map((name) => [name, url])), NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
