type Json = Record<string, unknown>;

/**
 * Gemini CLI expands `$NAME` and `${NAME}` in every string of its settings from its own
 * environment (the key included) and has no escape; `${…:-$}` of a variable it never has
 * yields a literal `$`, so the run's values reach the MCP server as they were given.
 */
const LITERAL_DOLLAR = '${AGENT_RUNS_LITERAL_DOLLAR:-$}';

function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('$', LITERAL_DOLLAR);
  if (Array.isArray(value)) return value.map(literal);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)]));
  return value;
}

/**
 * The run's MCP servers (contract form) in Gemini CLI's `mcpServers` form: `command` with
 * `args` and `env` (stdio); `url` as `httpUrl` (streamable HTTP) or, for an SSE server
 * (`type: "sse"` or a path ending in `/sse`), as `url`; `headers` for either. A `warp_id`
 * names a server of the hosted service, which a local run cannot reach: left out.
 */
export function geminiMcpServers(servers: Record<string, unknown>): Json {
  const out: Json = {};
  for (const [name, raw] of Object.entries(servers)) {
    const server = raw && typeof raw === 'object' ? (raw as Json) : {};
    if (typeof server['command'] === 'string') {
      out[name] = literal({ command: server['command'], ...(Array.isArray(server['args']) ? { args: server['args'] } : {}), ...(server['env'] ? { env: server['env'] } : {}) });
    } else if (typeof server['url'] === 'string') {
      const sse = server['type'] === 'sse' || /\/sse\/?$/.test(server['url'].split(/[?#]/)[0]!);
      out[name] = literal({ [sse ? 'url' : 'httpUrl']: server['url'], ...(server['headers'] ? { headers: server['headers'] } : {}) });
    }
  }
  return out;
}

/** Thinking tokens of a Gemini 2.x model for each named level. */
const THINKING_BUDGET: Record<string, number> = { minimal: 512, low: 1024, medium: 8192, high: 24576 };

/**
 * `reasoning_level` as the model's thinking configuration: Gemini 3 and later take a
 * `thinkingLevel` (the level, upper-cased), earlier models a `thinkingBudget` (tokens: a
 * number as given, or low 1024, medium 8192, high 24576). The API refuses what its model
 * does not take, and that refusal is the run's status message.
 */
export function geminiThinkingConfig(model: string, effort: string): Json {
  const major = Number(/^gemini-(\d+)/.exec(model)?.[1] ?? '0');
  const level = effort.trim().toLowerCase();
  if (major >= 3) return { thinkingLevel: level.toUpperCase() };
  const budget = /^\d+$/.test(level) ? Number(level) : THINKING_BUDGET[level];
  return budget === undefined ? { thinkingLevel: level.toUpperCase() } : { thinkingBudget: budget };
}

/**
 * The run's Gemini CLI settings, its home's `settings.json`: key auth (without it the CLI
 * refuses to start headless), no telemetry, no usage statistics, no update checks, IDE
 * connection or terminal warnings, the run's MCP servers and thinking. Not the system
 * settings file, which the CLI skips when any directory above it is writable by others
 * (as `/tmp` is).
 */
export function geminiSettings(input: { model: string | undefined; effort: string | undefined; mcpServers: Record<string, unknown> | undefined }): Json {
  const settings: Json = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false, logPrompts: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ide: { enabled: false },
    // Its terminal warnings (no 256 colours on a pipe) would be every run's first output line.
    ui: { showCompatibilityWarnings: false },
  };
  if (input.mcpServers && Object.keys(input.mcpServers).length > 0) settings['mcpServers'] = geminiMcpServers(input.mcpServers);
  if (input.model && input.effort) {
    settings['modelConfigs'] = {
      customOverrides: [{ match: { model: input.model }, modelConfig: { generateContentConfig: { thinkingConfig: geminiThinkingConfig(input.model, input.effort) } } }],
    };
  }
  return settings;
}
