import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_KEY_VARIABLE, OPENAI_DEFAULT_BASE_URL, writeCodexConfig } from './codex-config.js';
import { CodexStreamParser } from './codex-stream.js';
import type { HarnessDriver, LaunchInput } from './harness-driver.js';

/**
 * The model a run that names none gets: Codex reports usage without naming a model, so the
 * server always names one, and prices what it used at that model's list price.
 */
export const CODEX_DEFAULT_MODEL = 'gpt-5.5';
/** The server variable that moves the model provider off OpenAI's endpoint (a proxy, a gateway, a test server). */
export const CODEX_BASE_URL_VARIABLE = 'OPENAI_BASE_URL';

/** Files Codex takes as images (`--image`), the rest staying files named in the prompt. */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;
/** At most this many images go with one prompt. */
const MAX_IMAGES = 10;

/** The image files among the run's attachments, for the first prompt. */
function attachedImages(dirs: readonly string[]): string[] {
  const images: string[] = [];
  for (const dir of dirs) {
    try {
      // A comma would split the path in Codex's list of images.
      images.push(...readdirSync(dir).filter((name) => IMAGE_FILE.test(name) && !name.includes(',')).map((name) => join(dir, name)));
    } catch {
      // No such directory: nothing attached.
    }
  }
  return images.slice(0, MAX_IMAGES);
}

/**
 * Codex CLI (`codex exec --json`), its configuration, sessions and logs in the run's own
 * CODEX_HOME, so a follow-up (`codex exec resume <thread>`) resumes its own thread and
 * nothing of the server's user's `~/.codex` applies.
 */
export const codexDriver: HarnessDriver = {
  name: 'codex',
  defaultCommand: 'codex',
  installHint: 'npm install -g @openai/codex',
  keyVariables: [CODEX_KEY_VARIABLE, 'CODEX_API_KEY'],
  authSecretField: 'codex_auth_secret_name',
  // `turn.completed` counts the whole thread, earlier executions' turns included.
  sessionTotals: true,
  launch(input: LaunchInput, prompt: string) {
    const model = input.model ?? CODEX_DEFAULT_MODEL;
    // A thread id as Codex makes them (a UUID); anything else would be read as an option.
    const resume = input.resumeSession && /^[A-Za-z0-9][\w.-]*$/.test(input.resumeSession) ? input.resumeSession : undefined;
    writeCodexConfig(input.stateDir, {
      baseUrl: input.env?.[CODEX_BASE_URL_VARIABLE] || OPENAI_DEFAULT_BASE_URL,
      systemPrompt: input.systemPrompt,
      mcpServers: input.mcpServers,
    });
    // `--model=`: a model id that starts with a dash stays the model, never an option.
    const args = ['exec', ...(resume ? ['resume'] : []), '--json', '--skip-git-repo-check', `--model=${model}`];
    // As a TOML string; Codex sends any value on, and one the model does not take is the provider's error.
    if (input.effort) args.push('-c', `model_reasoning_effort=${JSON.stringify(input.effort)}`);
    // Images go with the first prompt only: the resumed thread has them already.
    if (!resume) for (const image of attachedImages(input.extraDirs)) args.push(`--image=${image}`);
    if (resume) args.push(resume);
    // The prompt on stdin (`-`): no length limit, and not in the process list.
    args.push('-');
    return {
      args,
      stdin: prompt,
      parser: new CodexStreamParser(model, input.workDir),
      env: {
        CODEX_HOME: input.stateDir,
        ...(input.key ? { [CODEX_KEY_VARIABLE]: input.key } : {}),
      },
    };
  },
  parser: () => new CodexStreamParser(CODEX_DEFAULT_MODEL, undefined),
};
