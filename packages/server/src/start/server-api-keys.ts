import type { ApiKey } from '../config/server-options.js';
import { generatedApiKey } from '../config/generated-api-key.js';

export interface ServerApiKeys {
  /** The key handed back: the first configured, or the generated one. */
  apiKey: string;
  keys: ApiKey[];
  /** Where the generated key is kept; undefined for configured keys or a server without a data directory. */
  apiKeyFile: string | undefined;
  /** Logs how to authenticate (the new key, once): called once the server listens, so a failed start prints no key. */
  announce(): void;
}

/**
 * The keys the server accepts and the one it hands back: the configured keys, or a key it
 * generated (kept in the data directory, printed only when new).
 */
export function serverApiKeys(configured: readonly ApiKey[], dataDir: string | undefined, noAuth: boolean, log: (line: string) => void): ServerApiKeys {
  const keys = [...configured];
  const first = configured[0]?.key;
  if (first) return { apiKey: first, keys, apiKeyFile: undefined, announce: () => {} };
  const generated = generatedApiKey(dataDir);
  keys.push({ key: generated.key, principal: 'local' });
  const announce = () => {
    if (noAuth) {
      log('Authentication is off (loopback only): any caller may create and cancel runs.');
    } else if (generated.created) {
      log(`No API key configured; generated one${generated.file ? ` (kept in ${generated.file})` : ''}. Use it as the Bearer key:`);
      log(`  ${generated.key}`);
    } else {
      log(`No API key configured; using the generated key kept in ${generated.file}.`);
    }
  };
  return { apiKey: generated.key, keys, apiKeyFile: generated.file, announce };
}
