import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The model provider the server defines for Codex: its own name, so no built-in provider's behaviour applies. */
export const CODEX_PROVIDER_ID = 'agent-runs';
/** Where the provider is when the server's environment names none (`OPENAI_BASE_URL`). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The variable the provider reads its key from, set by the driver for the CLI alone. */
export const CODEX_KEY_VARIABLE = 'OPENAI_API_KEY';

type TomlValue = string | number | boolean | string[] | { [key: string]: TomlValue };

/** A TOML basic string: JSON's escapes are TOML's, once lone surrogates (invalid in TOML) are replaced. */
function tomlString(text: string): string {
  return JSON.stringify(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** Keys are always quoted: a server name may hold dots or spaces. */
const tomlKey = (key: string) => tomlString(key);

function tomlInline(value: TomlValue): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlString).join(', ')}]`;
  return `{ ${Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlInline(v)}`).join(', ')} }`;
}

/** A table's lines: its plain values first, then its sub-tables (values only, at any depth). */
export function toToml(table: { [key: string]: TomlValue }, path: string[] = []): string {
  const plain = Object.entries(table).filter(([, v]) => typeof v !== 'object' || Array.isArray(v));
  const tables = Object.entries(table).filter(([, v]) => typeof v === 'object' && !Array.isArray(v)) as [string, { [key: string]: TomlValue }][];
  let text = path.length > 0 && plain.length > 0 ? `\n[${path.map(tomlKey).join('.')}]\n` : '';
  for (const [key, value] of plain) text += `${tomlKey(key)} = ${tomlInline(value)}\n`;
  for (const [key, value] of tables) text += toToml(value, [...path, key]);
  return text;
}

/** Codex's names for MCP servers: letters, digits, `_` and `-`. */
function serverName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || 'server';
}

const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(value && typeof value === 'object' ? value : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

/**
 * The run's MCP servers (contract form) in Codex's `mcp_servers` form: `command`, `args`,
 * `env` for stdio; `url` and `http_headers` for HTTP. A `warp_id` names a hosted server this
 * server cannot reach, so it is left out.
 */
export function codexMcpServers(servers: Record<string, unknown> | undefined): { [name: string]: { [key: string]: TomlValue } } {
  const out: { [name: string]: { [key: string]: TomlValue } } = {};
  for (const [name, raw] of Object.entries(servers ?? {})) {
    const server = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    if (typeof server['command'] === 'string') {
      const args = Array.isArray(server['args']) ? server['args'].filter((a): a is string => typeof a === 'string') : [];
      out[serverName(name)] = { command: server['command'], args, env: strings(server['env']) };
    } else if (typeof server['url'] === 'string') {
      out[serverName(name)] = { url: server['url'], http_headers: strings(server['headers']) };
    }
  }
  return out;
}

export interface CodexConfigInput {
  baseUrl: string;
  systemPrompt: string | undefined;
  mcpServers: Record<string, unknown> | undefined;
}

/**
 * The run's own `config.toml` in its private CODEX_HOME: the model provider on the
 * configured endpoint, no approvals, no sandbox of Codex's own, nothing sent anywhere else
 * (analytics, update checks, the plugin marketplace off), the system-prompt addition and
 * the run's MCP servers. Mode 0600: it may hold the MCP servers' tokens.
 */
export function writeCodexConfig(codexHome: string, input: CodexConfigInput): string {
  const config: { [key: string]: TomlValue } = {
    model_provider: CODEX_PROVIDER_ID,
    // Headless: nobody is there to approve, so nothing asks.
    approval_policy: 'never',
    // Codex's own sandbox (bubblewrap + a helper it installs beside CODEX_HOME) cannot start
    // inside a container or our own sandbox; the server's sandbox is what isolates a run.
    sandbox_mode: 'danger-full-access',
    check_for_update_on_startup: false,
    ...(input.systemPrompt ? { developer_instructions: input.systemPrompt } : {}),
    analytics: { enabled: false },
    // The plugin marketplace syncs from github.com and chatgpt.com at every start; the shell
    // snapshot starts a login shell in a session of its own, which a stop would leave behind.
    features: { plugins: false, shell_snapshot: false },
    model_providers: {
      [CODEX_PROVIDER_ID]: { name: 'agent-runs', base_url: input.baseUrl, env_key: CODEX_KEY_VARIABLE, wire_api: 'responses', supports_websockets: false },
    },
    mcp_servers: codexMcpServers(input.mcpServers),
  };
  const file = join(codexHome, 'config.toml');
  writeFileSync(file, toToml(config), { mode: 0o600 });
  return file;
}
