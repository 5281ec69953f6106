import * as core from '@actions/core';
import {
  API_KEY_VARIABLES,
  apiKeyFromEnv,
  baseURLProblem,
  DURATION_HINT,
  KNOWN_RUN_STATES,
  RequestValidationError,
  TERMINAL_RUN_STATES,
  validationIssues,
  parseDuration,
  readDuration,
  parseMcpServersInput,
  readPromptFile,
  RunAgentRequestSchema,
  RunFollowupRequestSchema,
  type AmbientAgentConfig,
  type IssueNames,
  type RunAgentRequest,
  type RunBudget,
  BUDGET_LIMITS,
  BUDGET_MINIMA,
} from '@agent-runs/core';
import { INPUT_DEFAULTS } from './input-defaults.js';
import { InputError } from './input-error.js';

/** Everything the action was asked to do, validated. */
export interface ActionInputs {
  /** The create body, without the default title (that comes from the GitHub context). */
  request: RunAgentRequest;
  /** With `run-id` and `message`: follow up that run instead of creating one (with a raised budget, where the inputs name one). */
  followup: { runId: string; message: string; budget?: RunBudget } | undefined;
  apiKey: string;
  baseURL: string | undefined;
  wait: boolean;
  timeoutMs: number;
  pollIntervalMs: number | undefined;
  /** Terminal states that fail the step. */
  failOn: string[];
  cancelOnTimeout: boolean;
  cancelOnJobCancel: boolean;
  jobSummary: boolean;
  comment: boolean;
  githubToken: string | undefined;
  /** The `agent` input: a named agent's name or id, looked up before the create. */
  agent: string | undefined;
  /** Who may start runs from events of others (`allow-forks`, `allowed-actors`). */
  allowForks: boolean;
  allowedActors: string[];
}

export type ReadInput = (name: string) => string;

const readActionInput: ReadInput = (name) => core.getInput(name);

const TRUE = ['true', 'True', 'TRUE'];
const FALSE = ['false', 'False', 'FALSE'];
const MIN_POLL_MS = 100;

/** Where a field of the create body comes from: validation problems name the input. */
const INPUT_NAMES: IssueNames = {
  prompt: 'Input "prompt"',
  title: 'Input "title"',
  skill: 'Input "skill"',
  'config.name': 'Input "name"',
  'config.model_id': 'Input "model"',
  'config.base_prompt': 'Input "base-prompt"',
  'config.environment_id': 'Input "environment"',
  'config.worker_host': 'Input "worker-host"',
  'config.pull_request': 'Input "pull-request"',
  'config.mcp_servers': 'Input "mcp-servers"',
  'config.budget.max_cost_usd': 'Input "max-cost-usd"',
  'config.budget.max_tokens': 'Input "max-tokens"',
  'config.budget.max_duration_seconds': 'Input "max-duration"',
  'prompt-file': 'Input "prompt-file"',
};

/** The lines of a RequestValidationError, each naming the input; anything else is rethrown. */
function inputProblems(error: unknown): readonly string[] {
  if (!(error instanceof RequestValidationError)) throw error;
  return error.withNames(INPUT_NAMES).lines;
}

/**
 * Reads and validates every input at once, so that one failed step lists every mistake.
 * Throws InputError; nothing is sent before this succeeds.
 */
export function readInputs(read: ReadInput = readActionInput, env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const problems: string[] = [];
  const get = (name: keyof typeof INPUT_DEFAULTS | (string & {})): string =>
    read(name).trim() || (INPUT_DEFAULTS as Record<string, string>)[name] || '';

  const boolean = (name: keyof typeof INPUT_DEFAULTS): boolean => {
    const value = get(name);
    if (TRUE.includes(value)) return true;
    if (FALSE.includes(value)) return false;
    problems.push(`Input "${name}" must be true or false, got "${value}".`);
    return INPUT_DEFAULTS[name] === 'true';
  };

  const duration = (name: string): number | undefined => {
    const value = get(name);
    if (value === '') return undefined;
    const { ms, problem } = readDuration(value);
    if (problem !== undefined || ms <= 0) {
      problems.push(`Input "${name}" ${problem ?? `must be ${DURATION_HINT}, greater than zero, got "${value}"`}.`);
      return undefined;
    }
    return ms;
  };

  const followup = readFollowup(get('run-id'), read('message'), problems);
  if (followup && (get('prompt') || get('prompt-file') || get('skill'))) {
    problems.push('Inputs "run-id" and "message" follow up an existing run: leave "prompt", "prompt-file" and "skill" unset (they start a new run).');
  }
  if (followup && get('worker-host')) {
    problems.push('Input "worker-host" places a new run: a follow-up ("run-id" and "message") runs where its run runs, so leave it unset.');
  }
  const prompt = followup ? undefined : readPrompt(get('prompt'), get('prompt-file'), get('skill'), problems);

  const config: AmbientAgentConfig = {};
  const setConfig = (input: string, key: keyof AmbientAgentConfig) => {
    const value = get(input);
    if (value) (config as Record<string, string>)[key] = value;
  };
  setConfig('name', 'name');
  const harness = get('harness');
  if (harness) {
    if (!['claude', 'codex', 'gemini', 'oz'].includes(harness)) problems.push(`Input "harness" must be claude, codex, gemini or oz, got "${harness}".`);
    // With a harness the model is the harness's own model option.
    else config.harness = { type: harness, ...(get('model') ? { model_id: get('model')! } : {}) };
  } else setConfig('model', 'model_id');
  setConfig('base-prompt', 'base_prompt');
  setConfig('environment', 'environment_id');
  setConfig('worker-host', 'worker_host');
  const pullRequest = get('pull-request');
  if (pullRequest) {
    if (!['draft', 'ready', 'off'].includes(pullRequest)) problems.push(`Input "pull-request" must be draft, ready or off, got "${pullRequest.slice(0, 40)}".`);
    else if (followup) problems.push('Input "pull-request" is a new run\'s: a follow-up ("run-id" and "message") updates the pull request its run opened, so leave it unset.');
    else config.pull_request = pullRequest as 'draft' | 'ready' | 'off';
  }
  const budget = readBudget(get, problems);
  if (budget && !followup) config.budget = budget;
  const mcp = get('mcp-servers');
  if (mcp) {
    try {
      config.mcp_servers = parseMcpServersInput(mcp, 'config.mcp_servers');
    } catch (error) {
      problems.push(...inputProblems(error));
    }
  }

  const request: RunAgentRequest = {};
  if (prompt !== undefined) request.prompt = prompt;
  const title = get('title');
  if (title) request.title = title;
  const skill = get('skill');
  if (skill) request.skill = skill;
  if (Object.keys(config).length > 0) request.config = config;
  // Checked here, with the other inputs, so that one failed step lists every mistake.
  const parsed = RunAgentRequestSchema.safeParse(request);
  if (!parsed.success && prompt !== undefined) {
    problems.push(...inputProblems(new RequestValidationError('run request', validationIssues(parsed.error))));
  }

  const { apiKey, baseURL } = readConnection(read, env, problems);

  const wait = boolean('wait');
  const timeoutMs = duration('timeout') ?? parseDuration(INPUT_DEFAULTS.timeout)!;
  const pollIntervalMs = duration('poll-interval');
  if (pollIntervalMs !== undefined && pollIntervalMs < MIN_POLL_MS) {
    problems.push(`Input "poll-interval" must be at least ${MIN_POLL_MS}ms, got "${get('poll-interval')}".`);
  }
  const failOn = readFailOn(get('fail-on'), problems);
  const cancelOnTimeout = boolean('cancel-on-timeout');
  const cancelOnJobCancel = boolean('cancel-on-job-cancel');
  const jobSummary = boolean('job-summary');
  const comment = boolean('comment');
  const githubToken = get('github-token') || undefined;
  if (comment && !githubToken) {
    problems.push('Input "github-token" is required when "comment" is true: pass github-token: ${{ github.token }} (with pull-requests: write).');
  }

  const allowForks = boolean('allow-forks');
  const allowedActors = readActors(get('allowed-actors'), problems);

  if (problems.length > 0) throw new InputError(problems);
  return {
    request,
    followup: followup && budget ? { ...followup, budget } : followup,
    apiKey,
    baseURL,
    wait,
    timeoutMs,
    pollIntervalMs,
    failOn,
    cancelOnTimeout,
    cancelOnJobCancel,
    jobSummary,
    comment,
    githubToken,
    agent: get('agent') || undefined,
    allowForks,
    allowedActors,
  };
}

/**
 * `max-cost-usd`, `max-tokens` and `max-duration`: the run's budget (at a cap it ends
 * BLOCKED; on a follow-up, a raised cap continues it), or undefined when none is given.
 */
function readBudget(get: (name: string) => string, problems: string[]): RunBudget | undefined {
  const budget: RunBudget = {};
  const number = (name: string, field: 'max_cost_usd' | 'max_tokens') => {
    const text = get(name);
    if (text === '') return;
    const integer = field === 'max_tokens';
    const value = (integer ? /^\d+$/ : /^(\d+(\.\d*)?|\.\d+)$/).test(text) ? Number(text) : Number.NaN;
    const [min, max] = [BUDGET_MINIMA[field], BUDGET_LIMITS[field]];
    if (value >= min && value <= max) budget[field] = value;
    else problems.push(`Input "${name}" must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${text.slice(0, 40)}".`);
  };
  number('max-cost-usd', 'max_cost_usd');
  number('max-tokens', 'max_tokens');
  const duration = get('max-duration');
  if (duration !== '') {
    const { ms = 0, problem } = readDuration(duration);
    const seconds = Math.ceil(ms / 1000);
    if (problem !== undefined || ms <= 0 || seconds > BUDGET_LIMITS.max_duration_seconds) {
      problems.push(`Input "max-duration" ${problem ?? `must be ${DURATION_HINT}, greater than zero and at most 7d, got "${duration.slice(0, 40)}"`}.`);
    } else budget.max_duration_seconds = seconds;
  }
  return Object.keys(budget).length > 0 ? budget : undefined;
}

/** GitHub logins: 1-39 letters, digits or single hyphens (bots end in `[bot]`). */
const LOGIN = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?$/;

/** `allowed-actors`: logins separated by commas or new lines. */
function readActors(value: string, problems: string[]): string[] {
  const logins = value.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
  const bad = logins.filter((login) => !LOGIN.test(login));
  if (bad.length > 0) problems.push(`Input "allowed-actors" must list GitHub logins separated by commas or new lines; not a login: ${bad.map((b) => JSON.stringify(b.slice(0, 60))).join(', ')}.`);
  return logins.filter((login) => LOGIN.test(login));
}

/** The key and address alone: all the post step needs. Problems are added to `problems`. */
export function readConnection(
  read: ReadInput = readActionInput,
  env: NodeJS.ProcessEnv = process.env,
  problems: string[] = [],
): { apiKey: string; baseURL: string | undefined } {
  const apiKey = read('api-key').trim() || apiKeyFromEnv(env) || '';
  // Masked at once, so that no later line (even an error) can show it.
  if (apiKey) {
    core.setSecret(apiKey);
  } else {
    problems.push(
      `Input "api-key" is required: pass it from a secret (api-key: \${{ secrets.AGENT_RUNS_API_KEY }}) or set ${API_KEY_VARIABLES} in the environment.`,
    );
  }
  const baseURL = read('base-url').trim() || undefined;
  const baseURLWrong = baseURL === undefined ? undefined : baseURLProblem(baseURL);
  if (baseURLWrong) problems.push(`Input "base-url": ${baseURLWrong}.`);
  return { apiKey, baseURL };
}

/** `run-id` + `message`: both or neither. The message is kept as written (it may be several lines). */
function readFollowup(runId: string, message: string, problems: string[]): ActionInputs['followup'] {
  if (!runId && message.trim() === '') return undefined;
  if (!runId) {
    problems.push('Input "message" needs "run-id": the id of the run to follow up (or use "prompt" to start a new run).');
    return undefined;
  }
  const parsed = RunFollowupRequestSchema.safeParse({ message });
  if (!parsed.success) {
    problems.push(`Input "message" is required with "run-id": a non-empty follow-up message for run ${runId}.`);
    return undefined;
  }
  return { runId, message: parsed.data.message };
}

function readPrompt(prompt: string, promptFile: string, skill: string, problems: string[]): string | undefined {
  if (prompt && promptFile) {
    problems.push('Inputs "prompt" and "prompt-file" are both set: give only one of them.');
    return undefined;
  }
  if (promptFile) {
    try {
      return readPromptFile(promptFile, 'prompt-file');
    } catch (error) {
      problems.push(...inputProblems(error).map((line) => `${line} (paths are relative to the workspace).`));
      return undefined;
    }
  }
  if (prompt) return prompt;
  if (!skill) problems.push('Input "prompt" is required: set "prompt", "prompt-file" (a file holding the prompt) or "skill".');
  return undefined;
}

/** `FAILED, ERROR` (commas, spaces or lines), or `none` for a step that never fails on the state. */
function readFailOn(value: string, problems: string[]): string[] {
  if (value.toLowerCase() === 'none') return [];
  const states = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => s.toUpperCase());
  const valid = `terminal states among ${TERMINAL_RUN_STATES.join(', ')} (or none)`;
  for (const state of states) {
    if (!(KNOWN_RUN_STATES as readonly string[]).includes(state)) {
      problems.push(`Input "fail-on": "${state}" is not a run state; use ${valid}.`);
    } else if (!(TERMINAL_RUN_STATES as readonly string[]).includes(state)) {
      problems.push(`Input "fail-on": "${state}" is not a terminal state, so a run never ends in it; use ${valid}.`);
    }
  }
  if (states.length === 0) problems.push(`Input "fail-on" must list ${valid}.`);
  return [...new Set(states)];
}
