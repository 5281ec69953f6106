import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AgentRunsClient,
  PROMPT_FILE_MAX_BYTES,
  RequestValidationError,
  VERSION,
  apiKeyFromEnv,
  baseURLProblem,
  missingApiKeyProblem,
  readPromptFile,
} from '../src/index.js';

describe('what every adapter needs before its first call', () => {
  it('takes the key from AGENT_RUNS_API_KEY, then WARP_API_KEY, ignoring blanks', () => {
    expect(apiKeyFromEnv({ AGENT_RUNS_API_KEY: ' ', WARP_API_KEY: 'w' })).toBe('w');
    expect(apiKeyFromEnv({ AGENT_RUNS_API_KEY: 'a', WARP_API_KEY: 'w' })).toBe('a');
    expect(apiKeyFromEnv({})).toBeUndefined();
  });

  it('says what is wrong with a base URL, or nothing', () => {
    expect(baseURLProblem('app.example.com')).toMatch(/must be an absolute http\(s\) URL/);
    expect(baseURLProblem('ftp://example.com/v1')).toMatch(/must use https: or http:/);
    expect(baseURLProblem('https://u:p@example.com/v1')).toMatch(/must not carry credentials/);
    expect(baseURLProblem('https://app.warp.dev/api/v1')).toBeUndefined();
  });

  it('asks for a key only for a server off this machine', () => {
    const remote = new AgentRunsClient({ baseURL: 'https://api.example.com/api/v1', env: {} });
    const local = new AgentRunsClient({ baseURL: 'http://127.0.0.1:9/api/v1', env: {} });
    expect(missingApiKeyProblem(remote, 'pass --api-key')).toBe(
      'No API key for https://api.example.com/api/v1: pass --api-key or set AGENT_RUNS_API_KEY (or WARP_API_KEY).',
    );
    expect(missingApiKeyProblem(local, 'pass --api-key')).toBeUndefined();
  });

  it('reads a prompt file without its final newline, and names the input when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-'));
    writeFileSync(join(dir, 'p.md'), 'Fix it\n\n');
    writeFileSync(join(dir, 'empty.md'), '  \n');
    writeFileSync(join(dir, 'big.md'), Buffer.alloc(PROMPT_FILE_MAX_BYTES + 1, 'a'));
    expect(readPromptFile(join(dir, 'p.md'))).toBe('Fix it');
    const failure = (path: string) => {
      try {
        readPromptFile(path, '--prompt-file');
      } catch (error) {
        expect(error).toBeInstanceOf(RequestValidationError);
        return (error as RequestValidationError).lines[0];
      }
      throw new Error('read');
    };
    expect(failure(join(dir, 'none.md'))).toMatch(/^--prompt-file: cannot read .*none\.md \(ENOENT\)/);
    expect(failure(join(dir, 'empty.md'))).toMatch(/^--prompt-file: .*empty\.md is empty/);
    expect(failure(join(dir, 'big.md'))).toMatch(/^--prompt-file: .*is larger than 1 MiB/);
  });

  it('takes its version from its package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });
});
