import type { Io } from '@agent-runs/cli';

/** An Io that records what the command writes, for running the built `main` in this process. */
export function capturingIo(env: Record<string, string | undefined> = {}) {
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env,
    onInterrupt: () => () => {},
  };
  return { io, out };
}
