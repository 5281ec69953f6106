import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** One agent process to start: the command executor's shell line, a harness CLI, a setup step. */
export interface AgentSpawn {
  command: string;
  args: readonly string[];
  /** The run's working directory. */
  cwd: string;
  /** The whole environment the process gets (nothing of the server's is inherited). */
  env: NodeJS.ProcessEnv;
}

/**
 * The one place an agent's process is started, so every agent (command, harness, setup step)
 * is started the same way: in a process group of its own, so cancel and timeout reach
 * everything it starts, with its three pipes.
 */
export function spawnAgent({ command, args, cwd, env }: AgentSpawn): ChildProcessWithoutNullStreams {
  return spawn(command, args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The shell line a configured agent command is, as an AgentSpawn's command and arguments. */
export function shellLine(line: string): Pick<AgentSpawn, 'command' | 'args'> {
  return { command: '/bin/sh', args: ['-c', line] };
}
