/** The environment variables read, in order of precedence. */
export const ENV = {
  baseURL: ['AGENT_RUNS_BASE_URL', 'OZ_API_BASE_URL'],
  apiKey: ['AGENT_RUNS_API_KEY', 'WARP_API_KEY'],
  logLevel: ['AGENT_RUNS_LOG'],
  allowInsecureHttp: ['AGENT_RUNS_ALLOW_INSECURE_HTTP'],
} as const;

/** `AGENT_RUNS_API_KEY (or WARP_API_KEY)`, for messages that say where a key comes from. */
export const API_KEY_VARIABLES = ENV.apiKey.join(' (or ') + ')';

/** The first of `names` set to something other than blanks, trimmed. */
export function envSetting(env: Record<string, string | undefined>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The API key from the environment (AGENT_RUNS_API_KEY, then WARP_API_KEY), if any. */
export function apiKeyFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  return envSetting(env, ENV.apiKey);
}
