import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from '../../packages/action/test/support/runner.js';
import { AGENT_KEY, FILE_BYTES, startAgentServer } from './followup-agent-server.js';

let t: Awaited<ReturnType<typeof startAgentServer>>;
beforeAll(async () => {
  t = await startAgentServer();
});
afterAll(() => t?.close());

const inputs = (more: Record<string, string>) => ({ 'api-key': AGENT_KEY, 'base-url': t.server.baseURL, 'poll-interval': '100ms', ...more });

describe('the bundled Action with a command agent', () => {
  it('reports the pull request, the artifacts and the result, then follows the run up with run-id and message', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Fix the parser' }) });
    expect(step.code).toBe(0);
    const { outputs } = step;
    expect(outputs['pr-url']).toBe('https://github.com/acme/app/pull/42');
    expect(outputs['pr-branch']).toBe('agent/fix-parser');
    expect(outputs.result).toBe('execution 1 opened a pull request');
    const artifacts = JSON.parse(outputs.artifacts!) as { artifact_type: string }[];
    expect(artifacts.map((a) => a.artifact_type)).toEqual(['PULL_REQUEST', 'FILE']);
    // The summary lists both, the file with a download link that serves its bytes.
    expect(step.summary).toContain('<h4>Artifacts</h4>');
    expect(step.summary).toContain('PULL&#95;REQUEST: agent/fix-parser <a href="https://github.com/acme/app/pull/42">');
    const href = /FILE: report\.bin <a href="([^"]+)">/.exec(step.summary)?.[1];
    expect(href).toBeDefined();
    const url = href!.replace(/&amp;/g, '&').replace(/&#95;/g, '_');
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(FILE_BYTES);

    const runId = outputs['run-id']!;
    const followUp = await runStep({ inputs: inputs({ 'run-id': runId, message: 'Address the review comment:\nrename the helper' }) });
    expect(followUp.code).toBe(0);
    expect(followUp.outputs['run-id']).toBe(runId);
    expect(followUp.outputs.result).toBe('execution 2 opened a pull request');
    expect(followUp.stdout).toContain(`Sent a follow-up to run ${runId}`);
    // Only the execution the follow-up started: the first one's output is not logged again.
    expect(followUp.stdout).toContain('working on execution 2');
    expect(followUp.stdout).not.toContain('working on execution 1');
    const conversation = await t.client.runs.conversation(runId);
    expect(conversation.steps.flatMap((s) => s.messages.filter((m) => m.role === 'user').map((m) => (m.content[0] as { text: string }).text))).toEqual([
      'Fix the parser',
      'Address the review comment:\nrename the helper',
    ]);
  });

  it.each([
    [{ message: 'hello' }, 'Input "message" needs "run-id"'],
    [{ 'run-id': 'some-run', message: '  ' }, 'Input "message" is required with "run-id"'],
    [{ 'run-id': 'some-run', message: 'hi', prompt: 'Fix it' }, 'leave "prompt", "prompt-file" and "skill" unset'],
  ])('refuses %j naming the input', async (more, error) => {
    const step = await runStep({ inputs: inputs(more) });
    expect(step.code).toBe(1);
    expect(step.error).toContain(error);
  });

  it('fails clearly for a run id that does not exist', async () => {
    const step = await runStep({ inputs: inputs({ 'run-id': 'no-such-run', message: 'hello' }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/404.*no-such-run/s);
  });
});
