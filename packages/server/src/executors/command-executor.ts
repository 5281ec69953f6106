import { dirname, join } from 'node:path';
import { deliverToInbox, prepareExecutionFiles, readAgentReport } from './agent-protocol.js';
import { shellLine } from './agent-spawn.js';
import { superviseAgent } from './agent-process.js';
import { exitOutcome } from './exit-outcome.js';
import { commandEnv } from './command-env.js';
import { addChangesPatch, gitAsAgent, recordChangesStart } from './changes-patch.js';
import { processTreeFile } from './process-tree.js';
import { writeAgentFile } from './agent-files.js';
import { NO_SANDBOX, type AgentSandbox } from './sandbox/agent-sandbox.js';
import { prepareWorkDir } from './run-work-dir.js';
import type { RunPolicy } from './run-policy.js';
import { commandFiles } from './sandbox/command-files.js';
import { withServerReach } from './sandbox/network-policy.js';
import { sandboxForRun } from './sandbox/principal-users.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';

const STDERR_TAIL_CHARS = 2000;

export interface CommandExecutorOptions {
  /** The agent command line, run by the shell. */
  command: string;
  /** Parent of the per-run working directories. */
  workRoot: string;
  timeoutMs: number;
  /** Variables of the server's environment passed to the agent besides the allow-list. */
  agentEnv?: readonly string[];
  /** How the agent starts (sandbox, agent user, network); bare as the server's user when not given. */
  sandbox?: AgentSandbox | undefined;
  /** What the run's environment adds: its secrets as variables, its network policy. */
  runPolicy?: ((run: RunRecord) => RunPolicy) | undefined;
}

/**
 * Runs the configured agent command for each run: the prompt on stdin, the run in
 * environment variables, its MCP servers in `mcp.json`, in a working directory of its
 * own. Exit 0 is SUCCEEDED; anything else FAILED with the end of stderr. What it changed in
 * the repositories of its working directory is the execution's `changes.patch`.
 */
export class CommandExecutor implements RunExecutor {
  readonly name = 'command';

  constructor(private readonly options: CommandExecutorOptions) {}

  start({ run, input, onOutput, agentApi }: ExecutionContext): Execution {
    const sandbox = sandboxForRun(this.options.sandbox ?? NO_SANDBOX, run);
    const workDir = prepareWorkDir(this.options.workRoot, run.id, sandbox);
    const mcpConfigPath = join(workDir, 'mcp.json');
    // It may hold the MCP servers' tokens: readable by the agent only; made fresh, so a link the agent left there is not followed.
    writeAgentFile(mcpConfigPath, `${JSON.stringify({ mcpServers: run.agentConfig.mcp_servers ?? {} }, null, 2)}\n`, sandbox.user);
    const files = prepareExecutionFiles(this.options.workRoot, run.id, input, sandbox.user);
    const policy = this.options.runPolicy?.(run) ?? { env: {} };
    // What the repositories hold now, so the end hands back what the agent changed (a harness's runs do the same).
    const git = gitAsAgent(sandbox, workDir);
    const changesStart = recordChangesStart(this.options.workRoot, workDir, git);

    let stderrTail = '';
    const agent = superviseAgent(
      {
        ...shellLine(this.options.command),
        cwd: workDir,
        env: { ...commandEnv(process.env, run, mcpConfigPath, workDir, input.number, files, this.options.agentEnv, agentApi), ...policy.env },
        sandbox,
        writable: [dirname(files.report), files.attachments],
        readOnly: commandFiles(this.options.command),
        network: withServerReach(policy.network ?? sandbox.network, agentApi),
      },
      {
        timeoutMs: this.options.timeoutMs,
        stdin: run.prompt,
        treeRecord: processTreeFile(this.options.workRoot, run.id),
        onStdout: (text) => onOutput(text, 'stdout'),
        onStderr: (text) => {
          onOutput(text, 'stderr');
          stderrTail = (stderrTail + text).slice(-STDERR_TAIL_CHARS);
        },
      },
    );

    const done = agent.exited.then((exit): ExecutionOutcome => {
      const report = readAgentReport(files, input);
      for (const note of report.notes) onOutput(`[agent-runs] ${note}\n`);
      addChangesPatch(report.artifacts, workDir, changesStart, git, (note) => onOutput(`[agent-runs] ${note}\n`));
      const tail = stderrTail.trim();
      const outcome = exitOutcome(exit, this.options.timeoutMs, 'The agent command', { result: report.result, lastWords: tail ? `: ${tail}` : undefined });
      return { ...outcome, artifacts: report.artifacts, takenFollowups: report.takenFollowups };
    });
    return {
      done,
      processGroup: agent.processGroup,
      cancel: () => agent.end(),
      deliver: (followup) => deliverToInbox(files, followup),
    };
  }
}
