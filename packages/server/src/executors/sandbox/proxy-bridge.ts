import { BRIDGE_PORT } from './proxy-env.js';
import { SANDBOX_PROXY_SOCKET } from './bwrap-args.js';

/**
 * Runs first in a sandbox under an allow-list (as `node -e`): listens on the sandbox's own
 * loopback, where HTTP(S)_PROXY points, forwards each connection to the server's filtering
 * proxy through the bound Unix socket, and only then starts the agent, whose exit it passes on.
 */
const BRIDGE = `
const net = require('node:net'), { spawn } = require('node:child_process');
const [socket, port, command, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(socket);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u).pipe(c);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(String(e.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (require('node:os').constants.signals[signal] || 1) : code));
});`;

/** The command and arguments that start the bridge, then `command args` behind it. */
export function behindBridge(command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', BRIDGE, '--', SANDBOX_PROXY_SOCKET, String(BRIDGE_PORT), command, ...args] };
}
