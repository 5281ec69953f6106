import { readFileSync } from 'node:fs';
import { ServerConfigError } from '../../domain/server-config-error.js';

/** The unprivileged account agents run as when the server runs as root. */
export interface AgentUser {
  name: string;
  uid: number;
  gid: number;
}

/** Used when the server runs as root and no agent user is configured: it exists on every Debian-like system. */
export const DEFAULT_AGENT_USER = 'nobody';

function passwdEntry(name: string): AgentUser | undefined {
  let text = '';
  try {
    text = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * `name` or `uid[:gid]` → the account, refusing root. Undefined when the server is not root
 * (it cannot switch users, and its agents then run as itself).
 */
export function resolveAgentUser(spec: string | undefined, serverUid: number | undefined = process.getuid?.()): AgentUser | undefined {
  if (serverUid !== 0) {
    if (spec !== undefined) throw new ServerConfigError(`agentUser "${spec}" needs the server to run as root (only root can start processes as another user).`);
    return undefined;
  }
  const text = (spec ?? DEFAULT_AGENT_USER).trim();
  const numeric = /^(\d+)(?::(\d+))?$/.exec(text);
  const user = numeric ? { name: text, uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) } : passwdEntry(text);
  if (!user) throw new ServerConfigError(`agentUser "${text}" is not a user of this system (give a user name, or uid[:gid]).`);
  if (user.uid === 0 || user.gid === 0) throw new ServerConfigError(`agentUser "${text}" is root; agents never run as root.`);
  return user;
}
