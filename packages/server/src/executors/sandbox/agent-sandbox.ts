import type { AgentUser } from './agent-user.js';
import type { NetworkPolicy } from './network-policy.js';

export type SandboxMode = 'auto' | 'on' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'on', 'off'];

/** How agent processes are started on this server, decided once at start-up. */
export interface AgentSandbox {
  /** bubblewrap's path when agents are sandboxed; undefined when they run bare. */
  bwrap: string | undefined;
  /** The account agents run as (the server runs as root); undefined: the server's own. */
  user: AgentUser | undefined;
  /** With `--agent-uid-range`: each principal's agents (commands and harnesses) run as this user instead of `user`. */
  userFor?: ((principal: string) => AgentUser) | undefined;
  /** The server's policy; an environment may name its own. */
  network: NetworkPolicy;
  /** Paths every sandbox sees read-only besides the system (a harness, tools). */
  readOnly: string[];
  /** util-linux's setpriv, which drops a root server's sandbox to the agent user. */
  setpriv?: string | undefined;
  /** Where the server is not root: what of the system only its user may read (its secrets and configuration in `/etc`), hidden from its agents. */
  hidden?: readonly string[] | undefined;
  /** bubblewrap's `--disable-userns` works here: agents cannot make user namespaces of their own. */
  disableUserns?: boolean | undefined;
  /** The size of the sandbox's private `/tmp` in bytes, where bubblewrap has `--size`. */
  tmpBytes?: number | undefined;
  /** How many processes (threads included) an agent's sandbox may hold, through util-linux's prlimit at `prlimit`. */
  maxProcesses?: number | undefined;
  prlimit?: string | undefined;
  /** For an allow-list: the Unix socket of the filtering proxy for these hosts (and model endpoints), bound into the sandbox. */
  proxyFor?: ((hosts: readonly string[], endpoints?: readonly string[]) => string) | undefined;
  /** One line for the start-up log: what was chosen and why. */
  description: string;
}

/** Agents run bare as the server's user: unit tests of executors, and `--sandbox off` as a non-root user. */
export const NO_SANDBOX: AgentSandbox = { bwrap: undefined, user: undefined, network: { kind: 'full' }, readOnly: [], description: 'sandbox off' };
