import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

describe('the built package, as a user imports it', () => {
  it('type-checks every public method in a consumer’s file', async () => {
    const result = await run(process.execPath, [tsc, '-p', project], { timeout: 120_000 }).catch((e: { stdout: string; code: number }) => e);
    expect('stdout' in result ? result.stdout : '').toBe('');
  }, 180_000);

  it('type-checks the same file for a user who compiles with exactOptionalPropertyTypes', async () => {
    const result = await run(process.execPath, [tsc, '-p', project, '--exactOptionalPropertyTypes'], { timeout: 120_000 }).catch((e: { stdout: string; code: number }) => e);
    expect('stdout' in result ? result.stdout : '').toBe('');
  }, 180_000);
});
