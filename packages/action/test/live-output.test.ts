import type { RunningServer } from '@agent-runs/server';
import { startCommandAgentServer } from '../../../test/support/command-agent.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from './support/runner.js';

// A real command agent whose output tries to act on the runner: a mask, an error
// annotation, an end of the group, and a line that hides itself with a carriage return.
const AGENT = [
  "echo 'Cloning the repository'",
  'sleep 0.2',
  "echo '::add-mask::Cloning'",
  "echo '::error title=forged::the build is broken'",
  "echo '::endgroup::'",
  "printf 'real\\rfake\\n'",
  "echo 'Opened a pull request'",
].join('; ');

let server: RunningServer;
beforeAll(async () => {
  server = await startCommandAgentServer(AGENT, { concurrency: 4 });
});
afterAll(() => server.close());

describe('the agent output in the job log', () => {
  it('comes inside a group with workflow commands stopped by a random token, and the summary shows the last lines', async () => {
    const step = await runStep({ inputs: { 'api-key': server.apiKey, 'base-url': server.baseURL, prompt: 'Fix it' } });
    expect(step.code).toBe(0);
    const lines = step.stdout.split('\n');
    const group = lines.indexOf('::group::Agent output');
    expect(group).toBeGreaterThan(-1);
    const stop = /^::stop-commands::([0-9a-f]{32})$/.exec(lines[group + 1]!);
    expect(stop).not.toBeNull();
    const token = stop![1]!;
    const resume = lines.indexOf(`::${token}::`, group);
    expect(resume).toBeGreaterThan(group);
    expect(lines[resume + 1]).toBe('::endgroup::');
    // Every line the agent printed sits between stop and resume, the dangerous ones included.
    const inside = lines.slice(group + 2, resume);
    expect(inside).toEqual(
      expect.arrayContaining(['Cloning the repository', '::add-mask::Cloning', '::error title=forged::the build is broken', '::endgroup::', 'real\\rfake', 'Opened a pull request']),
    );
    // And nowhere else: each appears once, inside.
    expect(lines.filter((l) => l === '::add-mask::Cloning' || l.startsWith('::error title=forged'))).toHaveLength(2);
    expect(step.error).toBeUndefined();

    expect(step.summary).toContain('lines of agent output</summary>');
    expect(step.summary).toContain('Opened a pull request');
    expect(step.summary).toContain('real\\rfake'.replace('\\', '&#92;'));
  });
});
