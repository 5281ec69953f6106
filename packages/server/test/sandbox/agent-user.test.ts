import { describe, expect, it } from 'vitest';
import { resolveAgentUser } from '../../src/executors/sandbox/agent-user.js';

describe("the agent user of a root server", () => {
  it('is nobody by default, or the configured name or uid[:gid], never root', () => {
    expect(resolveAgentUser(undefined, 0)).toMatchObject({ name: 'nobody', uid: 65534 });
    expect(resolveAgentUser('61000:61001', 0)).toEqual({ name: '61000:61001', uid: 61000, gid: 61001 });
    expect(() => resolveAgentUser('root', 0)).toThrow(/agentUser "root" is root; agents never run as root/);
    expect(() => resolveAgentUser('1000:0', 0)).toThrow(/is root/);
    expect(() => resolveAgentUser('no-such-user-here', 0)).toThrow(/is not a user of this system/);
  });

  it('is refused on a server that is not root, which cannot switch users', () => {
    expect(resolveAgentUser(undefined, 1000)).toBeUndefined();
    expect(() => resolveAgentUser('nobody', 1000)).toThrow(/needs the server to run as root/);
  });
});
