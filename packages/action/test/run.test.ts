import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { runStep } from './support/runner.js';

let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(() => env.close());

const inputs = (more: Record<string, string> = {}) => serverInputs(env.server, more);

const github = { GITHUB_REPOSITORY: 'acme/web', GITHUB_WORKFLOW: 'Agent review' };

describe.concurrent('a run that ends', () => {
  it('succeeds with every output set, a job summary and the run id saved for the post step', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Fix the bug [simulate 150ms]', model: 'test-model' }), env: github });
    expect(step.code).toBe(0);
    expect(step.error).toBeUndefined();
    const { outputs } = step;
    const run = JSON.parse(outputs.run!);
    expect(outputs).toMatchObject({ state: 'SUCCEEDED', 'run-id': run.run_id, title: 'acme/web · Agent review' });
    expect(outputs['status-message']).toBe(run.status_message?.message ?? '');
    expect(outputs['session-link']).toBe(run.session_link);
    expect(outputs['session-link']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(Number(outputs['duration-seconds'])).toBeGreaterThanOrEqual(0);
    expect(run.agent_config.model_id).toBe('test-model');
    expect(step.summary).toContain('<table>');
    expect(step.summary).toContain(`<tr><th align="left">Run</th><td>${run.run_id}</td></tr>`);
    expect(step.summary).toContain('<tr><th align="left">State</th><td>SUCCEEDED</td></tr>');
    expect(step.summary).toContain('<tr><th align="left">Model</th><td>test-model</td></tr>');
    expect(step.state).toMatchObject({ isPost: 'true', 'run-id': run.run_id, 'cancel-in-post': 'true' });
  });

  it('logs the run id and session link first, then each state change with the elapsed time', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Log me [simulate 1s]' }) });
    const lines = step.stdout.split('\n').filter((l) => !l.startsWith('::'));
    expect(lines[0]).toMatch(/^Started run \S+ \((QUEUED|INPROGRESS)\)\.$/);
    expect(lines[1]).toMatch(/^Session: http:\/\/127\.0\.0\.1:\d+\//);
    expect(lines).toContainEqual(expect.stringMatching(/^\[\d[\dhms]*\] INPROGRESS$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\[\d[\dhms]*\] SUCCEEDED/));
  });

  it('fails the step with the status message and link when the run fails', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Break [simulate fail 100ms]' }) });
    expect(step.code).toBe(1);
    expect(step.outputs.state).toBe('FAILED');
    expect(step.outputs['status-message']).not.toBe('');
    expect(step.error).toBe(
      `Run ${step.outputs['run-id']} failed: ${step.outputs['status-message']} ${step.outputs['session-link']}`,
    );
    expect(step.summary).toContain('<th align="left">Status</th>');
  });

  it('passes on a failed run when fail-on leaves FAILED out', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Break [simulate fail 100ms]', 'fail-on': 'ERROR, BLOCKED' }) });
    expect(step.code).toBe(0);
    expect(step.outputs.state).toBe('FAILED');
  });

  it('fails on a blocked run by default, saying it needs a person', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Ask [simulate block 100ms]' }) });
    expect(step.code).toBe(1);
    expect(step.outputs.state).toBe('BLOCKED');
    expect(step.error).toMatch(/is blocked and needs a person/);
  });

  it('writes no job summary when job-summary is false', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Quiet [simulate 100ms]', 'job-summary': 'false' }) });
    expect(step.code).toBe(0);
    expect(step.summary).toBe('');
  });
});

describe.concurrent('what the server records', () => {
  it('records the source GITHUB_ACTION and the title from the repository, workflow and pull request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-'));
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 42, author_association: 'MEMBER' } }));
    const step = await runStep({
      inputs: inputs({ prompt: 'Review [simulate 100ms]', name: 'review', wait: 'false' }),
      env: { ...github, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: join(dir, 'event.json') },
    });
    const run = await env.client.runs.get(step.outputs['run-id']!);
    expect(run.source).toBe('GITHUB_ACTION');
    expect(run.title).toBe('acme/web · Agent review · PR #42');
    expect(run.agent_config?.name).toBe('review');
  });

  it('sends the title input as given, and the MCP servers from a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-'));
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { docs: { url: 'https://docs.example.com/mcp' } } }));
    const step = await runStep({
      inputs: inputs({ prompt: 'Use docs [simulate 100ms]', title: 'Nightly docs', 'mcp-servers': join(dir, 'mcp.json'), wait: 'false' }),
      env: github,
    });
    const run = await env.client.runs.get(step.outputs['run-id']!);
    expect(run.title).toBe('Nightly docs');
    expect(run.agent_config?.mcp_servers).toEqual({ docs: { url: 'https://docs.example.com/mcp' } });
  });
});

describe.concurrent('fire and forget', () => {
  it('sets the outputs and succeeds at once with wait false, leaving the run to itself', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Long job [simulate hang]', wait: 'false' }) });
    expect(step.code).toBe(0);
    expect(['QUEUED', 'INPROGRESS']).toContain(step.outputs.state);
    expect(step.outputs['session-link']).toMatch(/^http/);
    expect(step.state['cancel-in-post']).toBe('false');
    const post = await runStep({ inputs: inputs(), state: step.state });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain('was left running on purpose');
    expect(['QUEUED', 'INPROGRESS']).toContain((await env.client.runs.get(step.outputs['run-id']!)).state);
    await env.client.runs.cancel(step.outputs['run-id']!);
  });
});

describe.concurrent('timeouts', () => {
  it('cancels the run on timeout, says so with the link, and the run ends CANCELLED', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Hang [simulate hang]', timeout: '1s' }) });
    expect(step.code).toBe(1);
    const id = step.outputs['run-id']!;
    expect(step.error).toMatch(new RegExp(`^Run ${id} did not finish within 1s \\(last state (QUEUED|INPROGRESS)\\), so it was cancelled \\(now CANCELLED\\)\\. http`));
    expect(step.outputs.state).toBe('CANCELLED');
    expect((await env.client.runs.get(id)).state).toBe('CANCELLED');
    const post = await runStep({ inputs: inputs(), state: step.state });
    expect(post.stdout).toContain(`Run ${id} already ended (CANCELLED); nothing to do.`);
  });

  it('leaves the run going with cancel-on-timeout false, says so, and the post step leaves it too', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Hang [simulate hang]', timeout: '1s', 'cancel-on-timeout': 'false' }) });
    expect(step.code).toBe(1);
    const id = step.outputs['run-id']!;
    expect(step.error).toMatch(/did not finish within 1s \(last state (QUEUED|INPROGRESS)\); it was left running \(cancel-on-timeout: false\)\. http/);
    expect(['QUEUED', 'INPROGRESS']).toContain(step.outputs.state);
    const post = await runStep({ inputs: inputs(), state: step.state });
    expect(post.stdout).toContain('left running on purpose');
    expect(['QUEUED', 'INPROGRESS']).toContain((await env.client.runs.get(id)).state);
    await env.client.runs.cancel(id);
  });
});

describe.concurrent('API errors', () => {
  it('fails on a rejected key (401) saying to check the api-key input, without the key', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'x', 'api-key': 'wrong-key-123' }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/^The API key was rejected by http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(401\)\..*Check the "api-key" input/);
    expect(step.stdout.replace(/^::add-mask::.*$/m, '')).not.toContain('wrong-key-123');
    expect(step.stdout).not.toMatch(/\n\s+at /);
  });

  it('fails on a base-url without the API (404) saying to check base-url', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'x', 'base-url': `${env.server.url}/nope/v1` }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/Not found \(404\).*Check "base-url"/);
  });
});
