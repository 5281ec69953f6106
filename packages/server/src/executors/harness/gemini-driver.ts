import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessDriver, LaunchInput } from './harness-driver.js';
import { geminiSettings } from './gemini-settings.js';
import { GeminiStreamParser } from './gemini-stream.js';

/**
 * Gemini CLI (`gemini -p`, stream-json), with a home of the run's own in its state
 * directory: its sessions (which `--resume <id>` finds by the working directory), its
 * settings and the system-prompt addition.
 */
export const geminiDriver: HarnessDriver = {
  name: 'gemini',
  defaultCommand: 'gemini',
  installHint: 'npm install -g @google/gemini-cli',
  keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  authSecretField: 'gemini_auth_secret_name',
  // Its result counts only this start: a resumed session's earlier turns are not in it.
  sessionTotals: false,
  launch(input: LaunchInput, prompt: string) {
    const home = join(input.stateDir, 'home');
    const tmp = join(input.stateDir, 'tmp');
    mkdirSync(join(home, '.gemini'), { recursive: true, mode: 0o700 });
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    // The skill or base prompt as the run's global context file, which the CLI adds to its own system prompt.
    const contextFile = join(home, '.gemini', 'GEMINI.md');
    writeFileSync(contextFile, input.systemPrompt ? `${input.systemPrompt}\n` : '', { mode: 0o600 });
    const settingsFile = join(home, '.gemini', 'settings.json');
    // It may hold the MCP servers' tokens: readable by this user only.
    writeFileSync(settingsFile, `${JSON.stringify(geminiSettings(input), null, 2)}\n`, { mode: 0o600 });
    // The prompt comes on stdin (`-p ""` appends nothing to it): never in the process list.
    const args = ['-p', '', '--output-format', 'stream-json', '--approval-mode', 'yolo'];
    // `--name=value`: a value starting with a dash stays a value.
    if (input.model) args.push(`--model=${input.model}`);
    for (const dir of input.extraDirs) args.push(`--include-directories=${dir}`);
    if (input.resumeSession) args.push(`--resume=${input.resumeSession}`);
    return {
      args,
      stdin: prompt,
      env: {
        GEMINI_CLI_HOME: home,
        // Over any `.gemini/settings.json` of the repository, which would win over the home's settings.
        GEMINI_TELEMETRY_ENABLED: 'false',
        GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        // One process, not a launcher that restarts itself with a larger heap.
        GEMINI_CLI_NO_RELAUNCH: 'true',
        // Its error reports (which quote the conversation) stay in the run's private directory.
        TMPDIR: tmp,
        ...(input.key ? { GEMINI_API_KEY: input.key } : {}),
      },
    };
  },
  parser: () => new GeminiStreamParser(),
};
