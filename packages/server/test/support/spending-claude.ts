import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from './server-config.js';

/** Dollars one message of the stand-in costs per 1,000 input tokens at Sonnet's price ($3 per million). */
export const USD_PER_THOUSAND_TOKENS = 0.003;

/**
 * A stand-in for Claude Code that spends: it prints the stream-json lines the claude harness
 * reads, one assistant message every `intervalSeconds` whose usage is the number of input
 * tokens the prompt names (`TOKENS=100000`: $0.30 each at Sonnet's price), `MESSAGES=n` of
 * them, then a successful result. Returns the configuration file's `harnesses:` entry; the
 * server needs ANTHROPIC_API_KEY set while it starts.
 */
export function spendingClaude(intervalSeconds = 0.3): { command: string; env: string[] } {
  const script = `#!/bin/sh
prompt=$(cat)
n=$(printf '%s' "$prompt" | sed -n 's/.*MESSAGES=\\([0-9]*\\).*/\\1/p' | head -n 1)
tokens=$(printf '%s' "$prompt" | sed -n 's/.*TOKENS=\\([0-9]*\\).*/\\1/p' | head -n 1)
echo '{"type":"system","subtype":"init","session_id":"spending-session"}'
i=1
while [ "$i" -le "\${n:-1}" ]; do
  echo "{\\"type\\":\\"assistant\\",\\"message\\":{\\"id\\":\\"msg-$$-$i\\",\\"model\\":\\"claude-sonnet-4-5\\",\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"step $i\\"}],\\"usage\\":{\\"input_tokens\\":\${tokens:-1000},\\"output_tokens\\":0}}}"
  sleep ${intervalSeconds}
  i=$((i + 1))
done
echo '{"type":"result","subtype":"success","result":"done","is_error":false}'
`;
  const dir = tempTree({ claude: script }, 'agent-runs-spending-claude-');
  // Read and run by the agent user of a root server.
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'claude'), 0o755);
  return { command: join(dir, 'claude'), env: ['ANTHROPIC_API_KEY'] };
}

/** Runs `start` with ANTHROPIC_API_KEY set (the harness's key, which the server reads as it starts), then restores the environment. */
export async function withHarnessKey<T>(start: () => Promise<T>): Promise<T> {
  const saved = process.env['ANTHROPIC_API_KEY'];
  process.env['ANTHROPIC_API_KEY'] = 'sk-ant-test-spend-0123456789';
  try {
    return await start();
  } finally {
    if (saved === undefined) delete process.env['ANTHROPIC_API_KEY'];
    else process.env['ANTHROPIC_API_KEY'] = saved;
  }
}
