import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function newApiKey(): string {
  return `arl_${randomBytes(24).toString('base64url')}`;
}

/**
 * The key used when none is configured. With a data directory it is kept there, so a
 * restart does not lock out clients; `created` says whether to print it (only then).
 */
export function generatedApiKey(dataDir: string | undefined): { key: string; created: boolean; file?: string } {
  if (!dataDir) return { key: newApiKey(), created: true };
  const file = join(dataDir, 'api-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key) return { key, created: false, file };
  }
  const key = newApiKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, created: true, file };
}
