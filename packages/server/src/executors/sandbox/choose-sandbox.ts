import { spawnSync } from 'node:child_process';
import { ServerConfigError } from '../../domain/server-config-error.js';
import type { AgentSandbox, SandboxMode } from './agent-sandbox.js';
import { resolveAgentUser } from './agent-user.js';
import { bwrapArgs } from './bwrap-args.js';
import { FilteringProxy } from './filtering-proxy.js';
import { findProgram } from './find-program.js';
import { principalUsers } from './principal-users.js';
import { describeNetwork, type NetworkPolicy } from './network-policy.js';

const PROBE_TIMEOUT_MS = 5000;

/** One filtering proxy per allow-list (with its model endpoints), started when a sandbox first needs it. */
function proxies(): (hosts: readonly string[], endpoints?: readonly string[]) => string {
  const byList = new Map<string, FilteringProxy>();
  return (hosts, endpoints = []) => {
    const key = `${[...hosts].sort().join(',')} ${[...endpoints].sort().join(',')}`;
    let proxy = byList.get(key);
    if (!proxy) byList.set(key, (proxy = new FilteringProxy(hosts, endpoints)));
    return proxy.socketPath;
  };
}

export interface SandboxChoice {
  mode: SandboxMode;
  agentUser?: string | undefined;
  /** `first-last`: each principal's agents run as a uid of their own from this range. */
  agentUidRange?: string | undefined;
  network: NetworkPolicy;
  readOnly?: string[] | undefined;
}

/** Why bubblewrap cannot sandbox here, or undefined when a probe sandbox ran. */
function probe(sandbox: AgentSandbox): string | undefined {
  if (!sandbox.bwrap) return 'bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)';
  if (sandbox.user && !sandbox.setpriv) return "util-linux's setpriv is not installed, which drops the sandbox to the agent user";
  const args = bwrapArgs(sandbox, { cwd: '/', writable: [], readOnly: [], network: { kind: 'none' } }, '/bin/sh', ['-c', 'exit 0']);
  const result = spawnSync(sandbox.bwrap, args, { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status === 0) return undefined;
  const why = (result.stderr ?? '').trim().split('\n')[0] || (result.error?.message ?? `exit ${String(result.status ?? result.signal)}`);
  return `bubblewrap cannot make a sandbox here (${why}); user namespaces may be disabled (kernel.unprivileged_userns_clone, or a container without them)`;
}

/**
 * Decides once how agents start: `auto` sandboxes where bubblewrap works and says why not
 * otherwise, `on` refuses to start without it (naming what is missing), `off` runs agents
 * bare. Where the server is root, agents run as the agent user in every mode.
 */
export function chooseSandbox({ mode, agentUser, agentUidRange, network, readOnly = [] }: SandboxChoice): AgentSandbox {
  const user = resolveAgentUser(agentUser);
  const userFor = agentUidRange === undefined ? undefined : principalUsers(agentUidRange);
  const own = userFor ? `, each principal's agents as a uid of their own in ${agentUidRange?.trim() ?? ''}` : '';
  const who = `${user ? `as ${user.name} (${user.uid}:${user.gid})` : "as the server's user"}${own}`;
  const bare: AgentSandbox = { bwrap: undefined, user, userFor, network: { kind: 'full' }, readOnly, description: '' };
  if (mode === 'off') return { ...bare, description: `Sandbox off (--sandbox off): agents run unsandboxed ${who}, with the server's filesystem and network.` };
  const candidate: AgentSandbox = { bwrap: findProgram('bwrap'), setpriv: findProgram('setpriv'), user, userFor, network, readOnly, proxyFor: proxies(), description: '' };
  const problem = probe(candidate);
  if (problem === undefined) {
    return { ...candidate, description: `Sandbox on (bubblewrap, --sandbox ${mode}): agents run ${who}, see only their run's files and the system read-only; network: ${describeNetwork(network)}.` };
  }
  if (mode === 'on') throw new ServerConfigError(`--sandbox on: ${problem}. Install it, or start with --sandbox auto or off.`);
  return { ...bare, description: `Sandbox off (--sandbox auto): ${problem}; agents run unsandboxed ${who}, with the server's filesystem and network.` };
}
