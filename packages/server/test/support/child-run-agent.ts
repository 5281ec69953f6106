/**
 * Node source for an agent that starts a child run with its run's API token, as an agent on a
 * worker (a process, a pod, a dispatched entrypoint) is given it: prints `url: <api url>` and
 * `token: <token>` (the worker masks it), then `child <status> <run id>`, or `failed <why>` and
 * exits 1. Tests of each backend embed it in their agent's script; `tokenFile` also writes the
 * token to token.txt in the agent's working directory, for a test to read what it got.
 */
export function startChildRunSource({ tokenFile = false }: { tokenFile?: boolean } = {}): string {
  return `
  (async () => {
    const token = process.env.AGENT_RUNS_RUN_TOKEN || '';
    ${tokenFile ? "require('node:fs').writeFileSync('token.txt', token);" : ''}
    console.log('url: ' + process.env.AGENT_RUNS_API_URL);
    console.log('token: ' + token);
    const res = await fetch(process.env.AGENT_RUNS_API_URL + '/api/v1/agent/runs', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Part one [simulate 10ms]' }),
    });
    const body = await res.json();
    console.log('child ' + res.status + ' ' + body.run_id);
  })().catch((error) => { console.log('failed ' + error.message); process.exitCode = 1; });
`;
}
