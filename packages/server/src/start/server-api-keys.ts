import type { ApiKey } from '../config/server-options.js';
import { generatedApiKey } from '../config/generated-api-key.js';

/**
 * The keys the server accepts and the one it hands back: the configured keys, or a key it
 * generated (kept in the data directory, printed only when new).
 */
export function serverApiKeys(
  configured: readonly ApiKey[],
  dataDir: string | undefined,
  noAuth: boolean,
  log: (line: string) => void,
): { apiKey: string; keys: ApiKey[] } {
  const keys = [...configured];
  const first = configured[0]?.key;
  if (first) return { apiKey: first, keys };
  const generated = generatedApiKey(dataDir);
  keys.push({ key: generated.key, principal: 'local' });
  if (noAuth) {
    log('Authentication is off (loopback only): any caller may create and cancel runs.');
  } else if (generated.created) {
    log(`No API key configured; generated one${generated.file ? ` (kept in ${generated.file})` : ''}. Use it as the Bearer key:`);
    log(`  ${generated.key}`);
  } else {
    log(`No API key configured; using the generated key kept in ${generated.file}.`);
  }
  return { apiKey: generated.key, keys };
}
