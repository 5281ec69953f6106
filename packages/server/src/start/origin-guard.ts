import { isLoopbackHost } from '@agent-runs/core/contract';
import { hostsForName, loopbackHosts, type OriginGuardOptions } from '@agent-runs/core/contract';

/** The Host names requests may be addressed to: loopback, the public URL's, and those allowed by name. */
export function originGuardFor(host: string, port: number, publicUrl: string, allowedHosts: readonly string[]): OriginGuardOptions {
  return {
    allowedHosts: [
      ...loopbackHosts(host, port),
      ...hostsForName(new URL(publicUrl).host, port),
      ...allowedHosts.flatMap((name) => hostsForName(name, port)),
    ],
  };
}

/** Said at start when a server bound beyond loopback would refuse requests by other names. */
export function originGuardWarning(host: string, allowedHosts: readonly string[], publicUrl: string | undefined): string | undefined {
  if (isLoopbackHost(host) || allowedHosts.length > 0 || publicUrl) return undefined;
  return `Bound to ${host}: requests are answered only when addressed to a loopback name; name the others with --allowed-host (or --public-url).`;
}
