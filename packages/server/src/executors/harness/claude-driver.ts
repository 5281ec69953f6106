import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClaudeStreamParser } from './claude-stream.js';
import type { HarnessDriver, LaunchInput } from './harness-driver.js';

/**
 * The tools Claude Code may use without asking. `--dangerously-skip-permissions` is refused
 * as root, so a headless run gets `acceptEdits` (edits in its directory) and this list
 * (shell commands, reads, searches) instead.
 */
export const CLAUDE_ALLOWED_TOOLS = ['Bash', 'Edit', 'MultiEdit', 'Write', 'Read', 'Glob', 'Grep', 'LS', 'NotebookEdit', 'TodoWrite', 'WebFetch'];

/**
 * The rule allowing every tool of each of the run's MCP servers (`mcp__<server>`): Claude Code
 * matches no wildcard over server names, and without a rule a headless run's every MCP call is
 * refused as not granted. A name that is not plain letters, digits, `_` and `-` gets no rule
 * (it could not be told from the list's separators), so its tools stay refused.
 */
export function mcpServerRules(servers: Record<string, unknown> | undefined): string[] {
  return Object.keys(servers ?? {})
    .filter((name) => /^[A-Za-z0-9_-]+$/.test(name))
    .map((name) => `mcp__${name}`);
}

/** Claude Code (`claude -p`, stream-json), its sessions kept in the run's own config directory. */
export const claudeDriver: HarnessDriver = {
  name: 'claude',
  defaultCommand: 'claude',
  installHint: 'npm install -g @anthropic-ai/claude-code',
  keyVariables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
  authSecretField: 'claude_auth_secret_name',
  sessionTotals: true,
  modelHosts: ['api.anthropic.com:443'],
  launch(input: LaunchInput, prompt: string) {
    const args = ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--allowedTools', [...CLAUDE_ALLOWED_TOOLS, ...mcpServerRules(input.mcpServers)].join(',')];
    if (input.model) args.push('--model', input.model);
    if (input.effort) args.push('--effort', input.effort);
    if (input.systemPrompt) args.push('--append-system-prompt', input.systemPrompt);
    for (const dir of input.extraDirs) args.push('--add-dir', dir);
    if (input.resumeSession) args.push('--resume', input.resumeSession);
    if (input.mcpServers && Object.keys(input.mcpServers).length > 0) {
      const file = join(input.stateDir, 'mcp.json');
      // It may hold the MCP servers' tokens: readable by this user only.
      writeFileSync(file, `${JSON.stringify({ mcpServers: input.mcpServers })}\n`, { mode: 0o600 });
      args.push('--mcp-config', file, '--strict-mcp-config');
    }
    return {
      args,
      stdin: prompt,
      env: {
        // Sessions, settings and credentials of this run only, so a follow-up resumes its own.
        CLAUDE_CONFIG_DIR: input.stateDir,
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
        ...(input.key ? { ANTHROPIC_API_KEY: input.key } : {}),
      },
    };
  },
  parser: () => new ClaudeStreamParser(),
};
