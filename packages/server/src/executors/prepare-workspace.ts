import { lchownSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { giveTree } from './agent-files.js';
import type { AgentSpawn } from './agent-spawn.js';
import { exitedCleanly, howItEnded, superviseAgent, type SupervisedAgent } from './agent-process.js';
import { commandFiles } from './sandbox/command-files.js';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { EnvironmentConfig } from '../domain/server-config.js';

const TAIL_LINES = 20;
const TAIL_CHARS = 4000;

interface Step {
  /** How the step is named in output and in a failure message. */
  label: string;
  /** Its process, started in the working directory as the steps are (`StepSpawn`). */
  spec: Pick<AgentSpawn, 'command' | 'args' | 'env'> & Partial<AgentSpawn>;
  /** Just before it starts. */
  before?(): void;
  /** After it succeeded (a clone made by the server's user is handed to the agent user). */
  after?(): void;
}

/** How the steps start: the sandbox, the agent user, what they may write and reach (as the agent does). */
export type StepSpawn = Pick<AgentSpawn, 'sandbox' | 'writable' | 'network'>;

/** Entries a clone handed to the agent user may hold: a large repository's, far more than a harness's state. */
const MAX_CLONE_ENTRIES = 2_000_000;

export interface WorkspacePreparation {
  /** Undefined when every step succeeded; the run's status message otherwise. */
  done: Promise<RunStatusMessage | undefined>;
  cancel(): Promise<void>;
}

function lastLines(text: string): string {
  return text.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
}

/**
 * Prepares a run's working directory for its environment: each repository cloned into it,
 * then each setup command run there by the shell, in order, each in a process group of its
 * own (so cancel reaches what it started). The first failure stops it and names the step
 * with its last output lines.
 */
export function prepareWorkspace(
  env: EnvironmentConfig,
  workDir: string,
  childEnv: NodeJS.ProcessEnv,
  onOutput: (text: string) => void,
  timeoutMs: number,
  /** Told each step's process group (its leader's pid) as it starts. */
  onProcessGroup: (pid: number) => void = () => {},
  spawnOptions: StepSpawn = {},
): WorkspacePreparation {
  const user = spawnOptions.sandbox?.user;
  const steps: Step[] = [
    ...env.repos.map((repo): Step => {
      // An operator's local repository may be readable by the server's user only: that user clones it
      // (still sandboxed, seeing only it and the working directory), without hard links, then hands it on.
      const source = repo.url.startsWith('file://') ? decodeURIComponent(new URL(repo.url).pathname) : repo.url;
      const local = isAbsolute(source);
      return {
        label: `git clone ${repo.url} ${repo.path}`,
        spec: {
          command: 'git',
          args: ['clone', '--quiet', ...(local ? ['--no-hardlinks'] : []), ...(repo.ref ? ['--branch', repo.ref] : []), '--', repo.url, repo.path],
          // Never wait on a password prompt: a private repository fails instead.
          env: { ...childEnv, GIT_TERMINAL_PROMPT: '0' },
          ...(local ? { readOnly: [source], asServer: true } : {}),
        },
        ...(local && user ? { after: () => giveTree(workDir, join(workDir, repo.path), user, MAX_CLONE_ENTRIES) } : {}),
      };
    }),
    ...env.setupCommands.map(
      (command): Step => ({
        label: command,
        spec: { command: '/bin/sh', args: ['-c', command], env: childEnv, readOnly: commandFiles(command) },
        // The working directory stays the server's while it clones into it, then is the agent's.
        before: () => {
          if (user) lchownSync(workDir, user.uid, user.gid);
        },
      }),
    ),
  ];
  let current: SupervisedAgent | undefined;
  let cancelled = false;

  const runStep = async (step: Step): Promise<RunStatusMessage | undefined> => {
    onOutput(`$ ${step.label}\n`);
    step.before?.();
    let tail = '';
    const collect = (text: string) => {
      onOutput(text);
      tail = (tail + text).slice(-TAIL_CHARS);
    };
    const agent = superviseAgent({ cwd: workDir, ...spawnOptions, ...step.spec }, { timeoutMs, onStdout: collect, onStderr: collect });
    current = agent;
    if (agent.processGroup) onProcessGroup(agent.processGroup.pgid);
    const exit = await agent.exited;
    // What the step left running goes before the next step starts.
    await agent.end();
    current = undefined;
    if (exitedCleanly(exit)) {
      step.after?.();
      return undefined;
    }
    const output = lastLines(tail);
    return {
      message: `Environment "${env.id}" setup failed: \`${step.label}\` ${howItEnded(exit, timeoutMs)}.${output ? `\nLast output:\n${output}` : ''}`,
      error_code: 'environment_setup_failed',
      retryable: false,
    };
  };

  const done = (async () => {
    for (const step of steps) {
      if (cancelled) return undefined;
      const failure = await runStep(step);
      if (failure) return cancelled ? undefined : failure;
    }
    return undefined;
  })();
  return {
    done,
    async cancel() {
      cancelled = true;
      await current?.end();
    },
  };
}
