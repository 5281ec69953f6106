import { createServer, type AddressInfo } from 'node:net';

/** A loopback port free a moment ago, for a process that must be told its port before it listens (a server started again on it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
