import type { RunRecord } from '../store/runs/run-record.js';
import type { ExecutionFiles } from './agent-protocol.js';
import type { AgentApiAccess } from './run-executor.js';

/** The environment variables the agent command receives, named once for code and docs. */
export const COMMAND_ENV = {
  runId: 'AGENT_RUNS_RUN_ID',
  title: 'AGENT_RUNS_TITLE',
  modelId: 'AGENT_RUNS_MODEL_ID',
  basePrompt: 'AGENT_RUNS_BASE_PROMPT',
  environmentId: 'AGENT_RUNS_ENVIRONMENT_ID',
  mode: 'AGENT_RUNS_MODE',
  mcpConfig: 'AGENT_RUNS_MCP_CONFIG',
  workDir: 'AGENT_RUNS_WORK_DIR',
  execution: 'AGENT_RUNS_EXECUTION',
  conversationFile: 'AGENT_RUNS_CONVERSATION_FILE',
  followupFile: 'AGENT_RUNS_FOLLOWUP_FILE',
  inboxFile: 'AGENT_RUNS_INBOX_FILE',
  attachmentsDir: 'AGENT_RUNS_ATTACHMENTS_DIR',
  artifactsDir: 'AGENT_RUNS_ARTIFACTS_DIR',
  reportFile: 'AGENT_RUNS_REPORT_FILE',
  apiUrl: 'AGENT_RUNS_API_URL',
  runToken: 'AGENT_RUNS_RUN_TOKEN',
} as const;

/**
 * What the agent gets of the server's environment unasked: enough to find programs, a
 * home, a locale and a temp directory. Everything else (tokens, keys, cloud credentials)
 * stays with the server unless the operator names it with --agent-env.
 */
export const AGENT_ENV_ALLOWED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR'] as const;
const LOCALE = /^LC_[A-Z_]+$/;

/** The agent's environment: the allow-listed variables, those passed on purpose, and the run's own. */
export function commandEnv(
  base: NodeJS.ProcessEnv,
  run: RunRecord,
  mcpConfigPath: string,
  workDir: string,
  execution: number,
  files: ExecutionFiles,
  passed: readonly string[] = [],
  /** The server's URL and the run's token, for an agent that starts and talks to other runs (left out of setup steps). */
  api?: AgentApiAccess,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    const allowed = (AGENT_ENV_ALLOWED as readonly string[]).includes(name) || LOCALE.test(name) || passed.includes(name);
    if (allowed && value !== undefined) env[name] = value;
  }
  const config = run.agentConfig;
  return {
    ...env,
    [COMMAND_ENV.runId]: run.id,
    [COMMAND_ENV.title]: run.title,
    [COMMAND_ENV.modelId]: config.model_id ?? '',
    [COMMAND_ENV.basePrompt]: config.base_prompt ?? '',
    [COMMAND_ENV.environmentId]: config.environment_id ?? '',
    // orchestrate: the agent is asked to hand the work to child runs (AGENT_RUNS_API_URL, AGENT_RUNS_RUN_TOKEN).
    [COMMAND_ENV.mode]: run.mode ?? 'normal',
    [COMMAND_ENV.mcpConfig]: mcpConfigPath,
    [COMMAND_ENV.workDir]: workDir,
    [COMMAND_ENV.execution]: String(execution),
    [COMMAND_ENV.conversationFile]: files.conversation,
    [COMMAND_ENV.followupFile]: files.followup,
    [COMMAND_ENV.inboxFile]: files.inbox,
    [COMMAND_ENV.attachmentsDir]: files.attachments,
    [COMMAND_ENV.artifactsDir]: files.artifacts,
    [COMMAND_ENV.reportFile]: files.report,
    ...(api ? { [COMMAND_ENV.apiUrl]: api.url, [COMMAND_ENV.runToken]: api.token } : {}),
  };
}
