import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { NO_SANDBOX, type AgentSandbox } from './sandbox/agent-sandbox.js';
import { bwrapArgs, SANDBOX_HOME } from './sandbox/bwrap-args.js';
import type { NetworkPolicy } from './sandbox/network-policy.js';
import { proxyEnv } from './sandbox/proxy-env.js';
import { behindBridge } from './sandbox/proxy-bridge.js';

/** One agent process to start: the command executor's shell line, a harness CLI, a setup step. */
export interface AgentSpawn {
  command: string;
  args: readonly string[];
  /** The run's working directory. */
  cwd: string;
  /** The whole environment the process gets (nothing of the server's is inherited). */
  env: NodeJS.ProcessEnv;
  /** How agents start on this server; bare as the server's user when not given. */
  sandbox?: AgentSandbox | undefined;
  /** Besides `cwd`, the directories the process may write (the execution's files, the attachments). */
  writable?: readonly string[] | undefined;
  /** What it may read besides the system (a local repository to clone). */
  readOnly?: readonly string[] | undefined;
  /** The run's environment's policy; the server's when not given. */
  network?: NetworkPolicy | undefined;
  /** Run as the server's user, still sandboxed: cloning an operator's local repository the agent user may not read. */
  asServer?: boolean | undefined;
  /** In the sandbox, its HOME when not the private /tmp: a directory of `writable` (a harness driver that keeps its state under HOME). */
  home?: string | undefined;
}

/**
 * The one place an agent's process is started, so every agent (command, harness, setup step)
 * is started the same way: in the sandbox where there is one, as the agent user where the
 * server is root, in a process group of its own (so cancel and timeout reach everything it
 * starts; in the sandbox its PID namespace ends with it), with its three pipes.
 */
export function spawnAgent(spec: AgentSpawn): ChildProcessWithoutNullStreams {
  const start = agentStart(spec);
  return spawn(start.command, start.args, { ...start.options, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * A short command of the server's on what an agent left (git over its working directory),
 * run to its end as the agent is (sandboxed, as the agent user), so nothing the agent
 * planted (a repository's hooks, filters or fsmonitor) runs with the server's rights.
 */
export function runAsAgent(
  spec: AgentSpawn,
  limits: { timeoutMs: number; maxBuffer: number },
): { status: number | null; stdout: Buffer } {
  const start = agentStart(spec);
  const result = spawnSync(start.command, start.args, { ...start.options, stdio: ['ignore', 'pipe', 'ignore'], timeout: limits.timeoutMs, maxBuffer: limits.maxBuffer, killSignal: 'SIGKILL' });
  return { status: result.status, stdout: result.stdout ?? Buffer.alloc(0) };
}

function agentStart(spec: AgentSpawn): { command: string; args: readonly string[]; options: { cwd: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number } } {
  const { command, args, cwd, env } = spec;
  const sandbox = spec.sandbox ?? NO_SANDBOX;
  if (!sandbox.bwrap) {
    const user = spec.asServer ? undefined : sandbox.user;
    return { command, args, options: { cwd, env, ...(user ? { uid: user.uid, gid: user.gid } : {}) } };
  }
  const network = spec.network ?? sandbox.network;
  // Under an allow-list the only way out is the proxy; without one, nothing (never more than asked).
  const proxySocket = network.kind === 'allow' ? sandbox.proxyFor?.(network.hosts, network.endpoints) : undefined;
  const view = { cwd, writable: [cwd, ...(spec.writable ?? [])], readOnly: spec.readOnly ?? [], network, asServer: spec.asServer, proxySocket };
  const inside = { ...env, HOME: spec.home ?? SANDBOX_HOME, TMPDIR: SANDBOX_HOME, ...(proxySocket ? proxyEnv() : {}) };
  const target = proxySocket ? behindBridge(command, args) : { command, args };
  return { command: sandbox.bwrap, args: bwrapArgs(sandbox, view, target.command, target.args), options: { cwd: '/', env: inside } };
}

/** The shell line a configured agent command is, as an AgentSpawn's command and arguments. */
export function shellLine(line: string): Pick<AgentSpawn, 'command' | 'args'> {
  return { command: '/bin/sh', args: ['-c', line] };
}
