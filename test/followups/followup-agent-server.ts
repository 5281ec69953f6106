import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type ServerOptions } from '@agent-runs/server';
import { startCommandAgentServer, writeAgentScript } from '../support/command-agent.js';

export const AGENT_KEY = 'followups-test-key-0123456789';

/** The bytes the agent writes: not text, so any re-encoding on the way shows. */
export const FILE_BYTES = Buffer.concat([Buffer.from('report '), Buffer.from([0, 1, 2, 254, 255]), Buffer.from(' end\n')]);

// A real agent: a shell script that opens a "pull request" (a report line), writes a
// file, records which execution ran where, says which execution is working, and answers follow-ups.
const AGENT = `#!/bin/sh
set -eu
cat > /dev/null
printf 'working on execution %s\\n' "$AGENT_RUNS_EXECUTION"
printf '%s|%s|%s\\n' "$AGENT_RUNS_EXECUTION" "$(pwd)" "$(cat "$AGENT_RUNS_FOLLOWUP_FILE")" >> executions.log
printf 'report \\000\\001\\002\\376\\377 end\\n' > "$AGENT_RUNS_ARTIFACTS_DIR/report.bin"
printf '%s\\n' '{"type":"PULL_REQUEST","url":"https://github.com/acme/app/pull/42","branch":"agent/fix-parser"}' >> "$AGENT_RUNS_REPORT_FILE"
printf '{"type":"RESULT","message":"execution %s opened a pull request"}\\n' "$AGENT_RUNS_EXECUTION" >> "$AGENT_RUNS_REPORT_FILE"
`;

/** A local server whose agent is that script, on a free loopback port, with a data directory of its own. */
export async function startAgentServer(options: ServerOptions = {}) {
  const { dir, command } = writeAgentScript(AGENT);
  const workDir = join(dir, 'work');
  const common: ServerOptions = { workDir, apiKeys: [{ key: AGENT_KEY, principal: 'tester' }], ...options };
  // The simulated executor (options.executor) refuses a command.
  const server =
    options.executor === 'simulated'
      ? await startServer({ port: 0, storage: 'memory', quiet: true, ...common })
      : await startCommandAgentServer(command, common);
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: AGENT_KEY, maxRetries: 0 });
  return {
    server,
    client,
    workDir,
    env: { AGENT_RUNS_API_KEY: AGENT_KEY, AGENT_RUNS_BASE_URL: server.baseURL },
    async close() {
      await client.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
