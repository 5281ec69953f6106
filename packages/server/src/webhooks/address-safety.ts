import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';

/**
 * Addresses a webhook may not reach unless the operator allows private webhooks: this
 * host, private networks, link-local ones (cloud metadata at 169.254.169.254 among
 * them), carrier-grade NAT, multicast and reserved ranges, and their IPv6 forms.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether `address` (an IP literal) is one a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  return inner ? BLOCKED.check(inner, 'ipv4') : BLOCKED.check(address, 'ipv6');
}

/** Why a webhook URL is refused. */
export class UnsafeWebhookUrlError extends Error {}

/** The URL's host does not resolve now (it may later: a declared webhook is kept, and checked again at delivery). */
export class UnresolvedHostError extends UnsafeWebhookUrlError {}

/** The host of a URL as DNS and `isIP` take it (IPv6 without brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL before it is stored: https (http too with `allowPrivate`), no
 * credentials in it, and every address its host resolves to public unless `allowPrivate`.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new UnsafeWebhookUrlError('must be an https URL (http is accepted only when the server runs with --allow-private-webhooks).');
  }
  if (url.username || url.password) throw new UnsafeWebhookUrlError('must not carry a user name or password; the signature authenticates the server.');
  if (allowPrivate) return;
  const addresses = await resolveHost(hostOf(url));
  const blocked = addresses.find((a) => isPrivateAddress(a.address));
  if (blocked) {
    throw new UnsafeWebhookUrlError(
      `resolves to ${blocked.address}, a loopback, private, link-local or metadata address; webhooks go to public addresses (the operator may allow private ones with --allow-private-webhooks).`,
    );
  }
}

/** The longest a name may take to resolve. */
const LOOKUP_TIMEOUT_MS = 5000;

/** Every address of `host` (the host itself for an IP literal); an unknown host is refused. */
export async function resolveHost(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
  } catch (error) {
    throw new UnresolvedHostError(`has a host that does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'}): ${host}.`);
  } finally {
    clearTimeout(timer);
  }
}
