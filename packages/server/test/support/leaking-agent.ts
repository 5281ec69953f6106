import type { ExpectStatic } from 'vitest';
import { ended, outputOf } from './server-api.js';
import type { ServerProcess } from './server-process.js';

/**
 * Node source for an agent that tries to leak its environment's secret DEPLOY_KEY: prints it
 * (`before <key>`), waits for the file `goFile` (a JS expression) to be there, then prints it
 * again (`after <key>`, and `encoded <base64>` on stderr) and names it in its result
 * (`done with <key>`). The backends' tests embed it in their agents, to show the mask holds
 * across a worker's restart (the test kills the worker between the two, then makes the file;
 * expectLeakMasked checks the end).
 */
export function leakingAgentSource(goFile: string): string {
  return `
  const key = process.env.DEPLOY_KEY || '';
  console.log('before ' + key);
  const wait = setInterval(() => {
    if (!require('fs').existsSync(${goFile})) return;
    clearInterval(wait);
    console.log('after ' + key);
    console.error('encoded ' + Buffer.from(key).toString('base64'));
    require('fs').writeFileSync(process.env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'RESULT', message: 'done with ' + key }) + '\\n');
  }, 50);
`;
}

/**
 * The leaking agent's run, once its go file was made: SUCCEEDED, and `secret` (what the agent
 * was given) masked wherever it printed it, plainly, base64 and in its result. Returns the run.
 */
export async function expectLeakMasked(expect: ExpectStatic, server: ServerProcess, id: string, secret: string) {
  const run = await ended(server, id, 30_000);
  expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
  const output = await outputOf(server, id);
  expect(output).toContain('before ***');
  expect(output).toContain('after ***');
  expect(output).toContain('encoded ***');
  expect(output).not.toContain(secret);
  expect(output).not.toContain(Buffer.from(secret).toString('base64').slice(0, 24));
  expect(run.status_message.message).toBe('done with ***');
  return run;
}
