import type { Server } from 'node:http';

/** Listens on `address` (port 0: a free one) and resolves with the port bound, or rejects with the listen error. */
export async function listenOn(server: Server, address: { host: string; port: number }): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  return typeof bound === 'object' && bound ? bound.port : address.port;
}
