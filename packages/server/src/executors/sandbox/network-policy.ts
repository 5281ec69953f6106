/**
 * What an agent may reach on the network: nothing (`none`, its own network namespace with
 * only its loopback), everything the server can (`full`), or only the named hosts through
 * the server's filtering proxy (`allow`).
 */
import type { NetworkPolicy } from '../../domain/server-config.js';

export type { NetworkPolicy };

/** `host` or `host:port`; `*.example.com` matches its subdomains. */
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

export const NETWORK_HINT = '"none", "full", or a list of hosts (name or name:port, *.name for subdomains)';

/** A configured policy (a word, or a list of hosts) → NetworkPolicy; a problem as text otherwise. */
export function readNetworkPolicy(value: unknown): NetworkPolicy | string {
  if (value === 'none' || value === 'full') return { kind: value };
  const hosts = typeof value === 'string' ? value.split(',').map((h) => h.trim()).filter(Boolean) : value;
  if (!Array.isArray(hosts) || hosts.length === 0) return `must be ${NETWORK_HINT}`;
  for (const host of hosts) {
    if (typeof host !== 'string' || !HOST.test(host)) return `"${String(host)}" is not a host name (give name or name:port, *.name for subdomains)`;
  }
  return { kind: 'allow', hosts: hosts.map((h: string) => h.toLowerCase()) };
}

export function describeNetwork(policy: NetworkPolicy): string {
  return policy.kind === 'allow' ? `only ${policy.hosts.join(', ')}` : policy.kind;
}

/**
 * `policy` with `hosts` let through as well (a harness's model endpoint): `none` becomes
 * an allow-list of just them, an allow-list gains them, `full` stays. With `endpoints`,
 * they are the operator's own endpoint (`host:port` each), reached even on loopback.
 */
export function allowAlso(policy: NetworkPolicy, hosts: readonly string[], { endpoints = false } = {}): NetworkPolicy {
  if (hosts.length === 0 || policy.kind === 'full') return policy;
  const added = hosts.map((h) => h.toLowerCase());
  const before = policy.kind === 'allow' ? policy : { hosts: [], endpoints: undefined };
  const trusted = [...new Set([...(before.endpoints ?? []), ...(endpoints ? added : [])])];
  return { kind: 'allow', hosts: [...new Set([...before.hosts, ...added])], ...(trusted.length > 0 ? { endpoints: trusted } : {}) };
}

/** `host:port` of an http(s) URL (the port its scheme implies when it names none), or undefined. */
export function urlHost(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * `policy` with the server's own API let through, at exactly its host and port even on
 * loopback, for an agent given a run token: under `none` or an allow-list the agent
 * reaches it through the filtering proxy (HTTP_PROXY), as it reaches a model endpoint.
 */
export function withServerReach(policy: NetworkPolicy, api: { url: string } | undefined): NetworkPolicy {
  const host = api ? urlHost(api.url) : undefined;
  return host ? allowAlso(policy, [host], { endpoints: true }) : policy;
}
