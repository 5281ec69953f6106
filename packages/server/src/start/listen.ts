import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening; resolves with the address bound, rejects when the port cannot be had. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** `http://host:port` of a bound address; bound to every interface, the loopback one, which always reaches it from here. */
export function listeningUrl(address: AddressInfo): string {
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const hostInUrl = address.family === 'IPv6' ? `[${reachable}]` : reachable;
  return `http://${hostInUrl}:${address.port}`;
}
