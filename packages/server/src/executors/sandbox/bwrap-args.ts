import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AgentSandbox } from './agent-sandbox.js';
import type { AgentUser } from './agent-user.js';
import type { NetworkPolicy } from './network-policy.js';

/** What one sandboxed process sees besides the system: its own directories, read-write or read-only. */
export interface SandboxView {
  cwd: string;
  /** Read-write: the working directory, the execution's files, the attachments. */
  writable: readonly string[];
  /** Read-only: e.g. a local repository a setup step clones. */
  readOnly: readonly string[];
  network: NetworkPolicy;
  /** Run as the server's user rather than the agent user (cloning an operator's local repository). */
  asServer?: boolean | undefined;
  /** Under an allow-list: the filtering proxy's socket outside. */
  proxySocket?: string | undefined;
}

/** Where the agent's home and temp directory are: a private tmpfs of its own. */
export const SANDBOX_HOME = '/tmp';
/** Where the allow-list proxy's socket appears inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = '/run/agent-runs/proxy.sock';

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** A system directory as the sandbox sees it: a link stays a link (usr-merged systems), a directory is bound read-only. */
function systemMount(path: string): string[] {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
  return stat.isDirectory() ? ['--ro-bind', path, path] : [];
}

/** The Node.js installation the server runs on, when it lives outside the system directories (nvm, a tarball). */
function nodePrefix(): string[] {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return SYSTEM_DIRS.some((dir) => prefix === dir || prefix.startsWith(`${dir}/`)) ? [] : [prefix];
}

/** A path hidden from the sandbox: a directory empty (an empty tmpfs over it), a file unreadable (the sandbox's /dev/null is no device). */
function hide(path: string): string[] {
  return isDirectory(path) ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path];
}

const isDirectory = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** Every ancestor of `path` below the root, outermost first. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== '/' && dir !== '.'; dir = dirname(dir)) out.unshift(dir);
  return out;
}

/**
 * The bwrap command line around `command args`: new mount, PID, IPC, UTS and cgroup
 * namespaces (and network, unless the policy is `full`); the system read-only; a private
 * /tmp that is also the home, of a bounded size; only this run's own directories bound;
 * what of the system only a non-root server's user may read hidden; the process ends with
 * the server. Where the server is root, bwrap keeps only what it needs to switch users and
 * `setpriv` drops to the agent user with no capabilities and no new privileges. The agent
 * can make no user namespace of its own (`--disable-userns`, which needs the sandbox in one:
 * a root server's agent user enters one through a second bwrap that binds the same view)
 * and holds at most `maxProcesses` processes (prlimit, counted in that namespace).
 */
export function bwrapArgs(sandbox: AgentSandbox, view: SandboxView, command: string, args: readonly string[]): string[] {
  const user: AgentUser | undefined = view.asServer ? undefined : sandbox.user;
  const root = process.getuid?.() === 0;
  const out = ['--die-with-parent', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try'];
  // A non-root server needs a user namespace to mount anything; root keeps its real ids until setpriv.
  if (!root) out.push('--unshare-user', ...(sandbox.disableUserns ? ['--disable-userns'] : []));
  if (view.network.kind !== 'full') out.push('--unshare-net');
  for (const dir of SYSTEM_DIRS) out.push(...systemMount(dir));
  for (const path of sandbox.hidden ?? []) out.push(...hide(path));
  const tmpSize = sandbox.tmpBytes ? ['--size', String(sandbox.tmpBytes)] : [];
  out.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', ...tmpSize, '--tmpfs', '/tmp');
  // The directories leading to a bound one are made traversable, whatever their modes outside.
  const made = new Set<string>(['/tmp']);
  const bind = (flag: '--bind' | '--ro-bind', path: string) => {
    for (const dir of ancestors(resolve(path))) {
      if (made.has(dir) || SYSTEM_DIRS.includes(dir)) continue;
      made.add(dir);
      out.push('--perms', '0555', '--dir', dir);
    }
    out.push(flag, path, path);
  };
  for (const path of [...nodePrefix(), ...sandbox.readOnly, ...view.readOnly]) if (existsSync(path)) bind('--ro-bind', path);
  for (const path of view.writable) bind('--bind', path);
  if (view.proxySocket) out.push('--perms', '0755', '--dir', dirname(SANDBOX_PROXY_SOCKET), '--bind', view.proxySocket, SANDBOX_PROXY_SOCKET);
  // Made read-only once what is bound below a hidden directory (a work root inside it) has its mount point there.
  for (const path of sandbox.hidden ?? []) if (isDirectory(path)) out.push('--remount-ro', path);
  out.push('--chdir', view.cwd);
  if (root) {
    // bwrap drops every capability by default; these three let setpriv switch to the agent, then it drops them too.
    if (user) out.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
    out.push('--');
    if (user) {
      out.push(sandbox.setpriv ?? 'setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--');
      if (sandbox.disableUserns && sandbox.bwrap) out.push(sandbox.bwrap, '--unshare-user', '--disable-userns', '--die-with-parent', '--dev-bind', '/', '/', '--chdir', view.cwd, '--');
    }
  } else out.push('--');
  if (sandbox.maxProcesses && sandbox.prlimit) out.push(sandbox.prlimit, `--nproc=${sandbox.maxProcesses}:${sandbox.maxProcesses}`, '--');
  return [...out, command, ...args];
}
