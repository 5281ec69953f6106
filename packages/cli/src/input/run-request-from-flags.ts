import { parseMcpServersInput, type AmbientAgentConfig, type IssueNames, type RunAgentRequest } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';
import { budgetFromFlags, BUDGET_FLAG_NAMES } from './budget-flags.js';
import { readPrompt } from './read-prompt.js';

/** Which flag sets each field of the request: the client's validation errors name these. */
export const RUN_FLAG_NAMES: IssueNames = {
  prompt: 'prompt',
  title: '--title',
  skill: '--skill',
  team: '--team',
  'config.name': '--name',
  'config.model_id': '--model',
  'config.harness.type': '--harness',
  'config.harness.model_id': '--model',
  'agent_config.harness.type': '--harness',
  'agent_config.harness.model_id': '--model',
  'agent_config.model_id': '--model',
  'config.base_prompt': '--base-prompt',
  'config.mcp_servers': '--mcp',
  'config.computer_use_enabled': '--computer-use',
  'config.idle_timeout_minutes': '--idle-timeout',
  'config.worker_host': '--worker-host',
  'agent_config.worker_host': '--worker-host',
  'config.pull_request': '--pr',
  'agent_config.pull_request': '--pr',
  ...BUDGET_FLAG_NAMES,
};

/** What `--pr` takes: a draft or ready pull request with the run's changes, or none. */
const PR_MODES = ['draft', 'ready', 'off'] as const;

/** The harnesses a run may name (`oz` is the server's default one). */
const HARNESSES = ['claude', 'codex', 'gemini', 'oz'];

function minutes(flags: ParsedFlags): number | undefined {
  const text = flags.string('idle-timeout');
  if (text === undefined) return undefined;
  // Checked here in the flag's terms: the contract's own message speaks of numbers, not minutes.
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= 60)) {
    throw new UsageError(`--idle-timeout must be a whole number of minutes from 1 to 60, got "${text}".`, flags.command);
  }
  return value;
}

/** The create body the flags describe; the client validates it (name issues with RUN_FLAG_NAMES). --environment and --agent are looked up apart. */
export function runRequestFromFlags(flags: ParsedFlags): RunAgentRequest {
  const config: AmbientAgentConfig = {};
  const set = <K extends keyof AmbientAgentConfig>(key: K, value: AmbientAgentConfig[K] | undefined) => {
    if (value !== undefined) config[key] = value;
  };
  set('name', flags.nonEmpty('name'));
  const harness = flags.nonEmpty('harness');
  // With a harness the model is the harness's (its own model option); without one, the run's.
  if (harness !== undefined) {
    if (!HARNESSES.includes(harness)) throw new UsageError(`--harness must be one of ${HARNESSES.join(', ')}, got "${harness}".`, flags.command);
    const model = flags.nonEmpty('model');
    config.harness = { type: harness, ...(model !== undefined ? { model_id: model } : {}) };
  } else set('model_id', flags.nonEmpty('model'));
  set('base_prompt', flags.nonEmpty('base-prompt'));
  set('worker_host', flags.nonEmpty('worker-host'));
  set('idle_timeout_minutes', minutes(flags));
  if (flags.bool('computer-use')) config.computer_use_enabled = true;
  set('budget', budgetFromFlags(flags));
  const pr = flags.nonEmpty('pr');
  if (pr !== undefined) {
    if (!(PR_MODES as readonly string[]).includes(pr)) throw new UsageError(`--pr must be one of ${PR_MODES.join(', ')}, got "${pr}".`, flags.command);
    config.pull_request = pr as (typeof PR_MODES)[number];
  }
  const mcp = flags.string('mcp');
  if (mcp !== undefined) config.mcp_servers = parseMcpServersInput(mcp, '--mcp');

  const body: RunAgentRequest = {};
  const prompt = readPrompt(flags.positionals, flags.string('prompt-file'), flags.command);
  if (prompt !== undefined) body.prompt = prompt;
  const title = flags.nonEmpty('title');
  if (title !== undefined) body.title = title;
  const skill = flags.nonEmpty('skill');
  if (skill !== undefined) body.skill = skill;
  if (flags.bool('team')) body.team = true;
  if (Object.keys(config).length > 0) body.config = config;

  if (body.prompt === undefined && body.skill === undefined) {
    throw new UsageError('Give a prompt (an argument, or --prompt-file) or a --skill.', flags.command);
  }
  return body;
}
