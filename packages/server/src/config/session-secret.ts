import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key session-link tokens are signed with. Kept in the data directory (0600) so links
 * keep working across restarts; a server without one (memory mode) makes one per start.
 */
export function sessionSecret(dataDir: string | undefined): Buffer {
  if (!dataDir) return randomBytes(32);
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (text.length >= 43) return Buffer.from(text, 'base64url');
  }
  const secret = randomBytes(32);
  writeFileSync(file, `${secret.toString('base64url')}\n`, { mode: 0o600 });
  return secret;
}
