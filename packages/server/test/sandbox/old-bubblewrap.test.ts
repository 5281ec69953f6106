import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsAgent } from '../../src/executors/agent-spawn.js';
import { chooseSandbox } from '../../src/executors/sandbox/choose-sandbox.js';
import { findProgram } from '../../src/executors/sandbox/find-program.js';
import { tempTree } from '../support/server-config.js';

const realBwrap = findProgram('bwrap');
const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe.skipIf(!realBwrap)('the sandbox on a bubblewrap older than 0.8.0', () => {
  it('still starts agents, and says at start that /tmp is unbounded and user namespaces are allowed', () => {
    // This bubblewrap, with the options an older one lacks left out of its help.
    const dir = tempTree({}, 'agent-runs-old-bwrap-');
    const fake = join(dir, 'bwrap');
    writeFileSync(fake, `#!/bin/sh\nif [ "$1" = --help ]; then ${realBwrap} --help | grep -v -e --disable-userns -e --size -e --assert-userns; exit 0; fi\nexec ${realBwrap} "$@"\n`);
    chmodSync(fake, 0o755);
    chmodSync(dir, 0o755);
    process.env.PATH = `${dir}:${path ?? ''}`;
    const sandbox = chooseSandbox({ mode: 'on', network: { kind: 'none' } });
    expect(sandbox.bwrap).toBe(fake);
    expect(sandbox.description).toMatch(/; \/tmp unbounded \(this bubblewrap has no --size\), 1024 processes, user namespaces allowed \(this bubblewrap has no --disable-userns, or they are off for agents\); network: none\.$/);
    const cwd = tempTree({}, 'agent-runs-old-bwrap-cwd-');
    chmodSync(cwd, 0o777);
    const ran = runAsAgent({ command: '/bin/sh', args: ['-c', 'echo ran'], cwd, env: { PATH: '/usr/bin:/bin' }, sandbox }, { timeoutMs: 60_000, maxBuffer: 65536 });
    expect({ status: ran.status, stdout: ran.stdout.toString() }).toEqual({ status: 0, stdout: 'ran\n' });
  }, 120_000);
});
