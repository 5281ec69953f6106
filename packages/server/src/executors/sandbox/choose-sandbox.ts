import { spawnSync } from 'node:child_process';
import { ServerConfigError } from '../../domain/server-config-error.js';
import type { AgentSandbox, SandboxMode } from './agent-sandbox.js';
import { resolveAgentUser } from './agent-user.js';
import { bwrapArgs } from './bwrap-args.js';
import { FilteringProxy } from './filtering-proxy.js';
import { findProgram } from './find-program.js';
import { principalUsers } from './principal-users.js';
import { describeNetwork, type NetworkPolicy } from './network-policy.js';
import { privatePaths } from './private-paths.js';

const PROBE_TIMEOUT_MS = 5000;

/** The default size of a sandbox's private /tmp (its HOME too): 1 GiB. */
export const DEFAULT_TMP_MB = 1024;
/** The default bound on an agent sandbox's processes, threads included. */
export const DEFAULT_MAX_PROCESSES = 1024;

/**
 * Where a non-root server's secrets and configuration live among the system directories
 * its agents see (the rest of /usr, /bin and /lib is the distribution's, and scanning it
 * would take seconds at every start).
 */
const OPERATOR_DIRS = ['/etc', '/opt', '/usr/local'];

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
  /** The private /tmp's size in MiB (default DEFAULT_TMP_MB). */
  tmpMb?: number | undefined;
  /** At most this many processes per agent sandbox (default DEFAULT_MAX_PROCESSES). */
  maxProcesses?: number | undefined;
}

/** The options this bubblewrap lists in its help (older ones lack --disable-userns and --size). */
function bwrapOptions(bwrap: string): string {
  const result = spawnSync(bwrap, ['--help'], { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

/** What a non-root server's agents, which run as its uid, must not read: what only that uid (and its groups) can. */
function serverPrivatePaths(): string[] {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return [];
  return privatePaths(OPERATOR_DIRS, uid, [process.getegid?.() ?? uid, ...(process.getgroups?.() ?? [])]);
}

/** The start-up line's words on the limits an agent's sandbox has, and the ones this system cannot set. */
function describeLimits(sandbox: AgentSandbox): string {
  const tmp = sandbox.tmpBytes ? `/tmp ${Math.round(sandbox.tmpBytes / 1048576)} MiB` : '/tmp unbounded (this bubblewrap has no --size)';
  const procs = sandbox.prlimit ? `${String(sandbox.maxProcesses)} processes` : "processes unbounded (util-linux's prlimit is not installed)";
  const userns = sandbox.disableUserns ? 'no user namespaces' : 'user namespaces allowed (this bubblewrap has no --disable-userns, or they are off for agents)';
  return `${tmp}, ${procs}, ${userns}`;
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
export function chooseSandbox({ mode, agentUser, agentUidRange, network, readOnly = [], tmpMb = DEFAULT_TMP_MB, maxProcesses = DEFAULT_MAX_PROCESSES }: SandboxChoice): AgentSandbox {
  const user = resolveAgentUser(agentUser);
  const userFor = agentUidRange === undefined ? undefined : principalUsers(agentUidRange);
  const own = userFor ? `, each principal's agents as a uid of their own in ${agentUidRange?.trim() ?? ''}` : '';
  const who = `${user ? `as ${user.name} (${user.uid}:${user.gid})` : "as the server's user"}${own}`;
  const bare: AgentSandbox = { bwrap: undefined, user, userFor, network: { kind: 'full' }, readOnly, description: '' };
  if (mode === 'off') return { ...bare, description: `Sandbox off (--sandbox off): agents run unsandboxed ${who}, with the server's filesystem and network.` };
  const bwrap = findProgram('bwrap');
  const options = bwrap ? bwrapOptions(bwrap) : '';
  const prlimit = findProgram('prlimit');
  const hidden = serverPrivatePaths();
  const candidate: AgentSandbox = {
    bwrap,
    setpriv: findProgram('setpriv'),
    user,
    userFor,
    network,
    readOnly,
    hidden,
    disableUserns: options.includes('--disable-userns'),
    tmpBytes: options.includes('--size') ? tmpMb * 1048576 : undefined,
    maxProcesses: prlimit ? maxProcesses : undefined,
    prlimit,
    proxyFor: proxies(),
    description: '',
  };
  let problem = probe(candidate);
  // Where agents may not make user namespaces at all, the way to forbid them fails too: they have none either way.
  if (problem !== undefined && candidate.disableUserns) {
    candidate.disableUserns = false;
    problem = probe(candidate);
  }
  if (problem === undefined) {
    const secrets = hidden.length ? `, except ${hidden.length} path(s) only the server's user may read` : '';
    return {
      ...candidate,
      description: `Sandbox on (bubblewrap, --sandbox ${mode}): agents run ${who}, see only their run's files and the system read-only${secrets}; ${describeLimits(candidate)}; network: ${describeNetwork(network)}.`,
    };
  }
  if (mode === 'on') throw new ServerConfigError(`--sandbox on: ${problem}. Install it, or start with --sandbox auto or off.`);
  return { ...bare, description: `Sandbox off (--sandbox auto): ${problem}; agents run unsandboxed ${who}, with the server's filesystem and network.` };
}
