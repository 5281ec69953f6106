import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { safeFileName } from '@agent-runs/core/contract';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import { appendAgentFile, freshAgentDir, serverDir, writeAgentFile, type FileOwner } from './agent-files.js';
import { readAgentFile } from './agent-tree.js';
import { collectArtifactFiles } from './collect-artifact-files.js';
import type { ExecutionInput, FollowupMessage } from './execution-input.js';
import { readReportLines } from './report-lines.js';

/** Largest report file read, in bytes; the rest is ignored with a note. */
export const MAX_REPORT_BYTES = 1024 * 1024;

/** Where the protocol's files of one run live: beside its working directory, not in it, so an agent committing its tree does not commit them. */
export function protocolDir(workRoot: string, runId: string): string {
  return join(workRoot, '.agent-runs', runId);
}

/** The run's attachments, given to the agent and handed back by `handoff/attachments`. */
export function attachmentsDir(workRoot: string, runId: string): string {
  return join(protocolDir(workRoot, runId), 'attachments');
}

export interface ExecutionFiles {
  /** The server's work root every other path lies beneath: what the agent wrote is read from it, a name at a time. */
  root: string;
  conversation: string;
  followup: string;
  inbox: string;
  report: string;
  artifacts: string;
  attachments: string;
}

/** Where the protocol's files of one execution are. */
export function executionFiles(workRoot: string, runId: string, execution: number): ExecutionFiles {
  const dir = join(protocolDir(workRoot, runId), 'executions', String(execution));
  return {
    root: workRoot,
    conversation: join(dir, 'conversation.jsonl'),
    followup: join(dir, 'followup.txt'),
    inbox: join(dir, 'inbox.jsonl'),
    report: join(dir, 'report.jsonl'),
    artifacts: join(dir, 'artifacts'),
    attachments: attachmentsDir(workRoot, runId),
  };
}

/**
 * Writes what the agent reads (conversation, current follow-up, attachments) and makes the
 * directories it writes to. The execution's directory is made fresh, so nothing the agent
 * of an earlier execution planted there (a link, a FIFO) is used; the directories above it
 * are the server's and refused if they are anything but directories.
 */
export function prepareExecutionFiles(workRoot: string, runId: string, input: ExecutionInput, owner?: FileOwner): ExecutionFiles {
  const runDir = protocolDir(workRoot, runId);
  const executions = join(runDir, 'executions');
  const dir = join(executions, String(input.number));
  const files = executionFiles(workRoot, runId, input.number);
  // Traversable, not listable, where the agent is another user: it reaches only the names it is given.
  for (const parent of [join(workRoot, '.agent-runs'), runDir, executions]) serverDir(parent, owner ? 0o711 : 0o700);
  freshAgentDir(dir, owner);
  freshAgentDir(files.artifacts, owner);
  // What the agent reads is the server's (readable); what it writes is its own.
  writeAgentFile(files.conversation, input.conversation.map((entry) => `${JSON.stringify(entry)}\n`).join(''), undefined, 0o644);
  writeAgentFile(files.followup, input.followups.map((f) => f.message).join('\n\n'), undefined, 0o644);
  writeAgentFile(files.inbox, '', undefined, 0o644);
  writeAgentFile(files.report, '', owner);
  // Written once, before the first execution: later ones see the directory as the agent left it.
  if (!lstatSync(files.attachments, { throwIfNoEntry: false })) {
    freshAgentDir(files.attachments, owner);
    const used = new Set<string>();
    input.attachments.forEach((attachment, i) => {
      let name = safeFileName(attachment.file_name, `attachment-${i + 1}`);
      if (used.has(name)) name = `${i + 1}-${name}`;
      used.add(name);
      writeAgentFile(join(files.attachments, name), attachment.data, owner);
    });
  }
  return files;
}

/** Appends a follow-up to the inbox a running agent may watch; false when the agent replaced the inbox with anything but a file. */
export function deliverToInbox(files: ExecutionFiles, followup: FollowupMessage): boolean {
  return appendAgentFile(files.inbox, `${JSON.stringify(followup)}\n`);
}

/** Notes one execution adds to the run's output; the rest are told in one line. */
export const MAX_NOTES_PER_EXECUTION = 50;

const omitted = (count: number): string[] =>
  count ? [`${count} more skipped report lines or artifacts were left unnoted (at most ${MAX_NOTES_PER_EXECUTION} notes of each per execution).`] : [];

export interface AgentReport {
  artifacts: NewArtifact[];
  result?: string | undefined;
  takenFollowups: string[];
  notes: string[];
}

/** Reads what the agent reported: report lines, then files left in the artifacts directory, within the limits. */
export function readAgentReport(files: ExecutionFiles, input: ExecutionInput): AgentReport {
  const { text, truncated, refused } = readAgentFile(files.root, files.report, MAX_REPORT_BYTES);
  // A line cut at the size limit is dropped rather than misread.
  const complete = truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  const lines = readReportLines(complete, timeOrderedId, MAX_NOTES_PER_EXECUTION);
  const notes = [...lines.notes];
  if (refused) notes.push(`the report file ${refused}; it was not read.`);
  if (truncated) notes.push(`the report file is larger than ${MAX_REPORT_BYTES} bytes; lines past that were ignored.`);
  const max = input.limits.maxArtifactsPerExecution;
  let artifacts = lines.artifacts;
  if (artifacts.length > max) {
    notes.push(`the report names ${artifacts.length} artifacts, over the limit of ${max} per execution; the first ${max} were kept.`);
    artifacts = artifacts.slice(0, max);
  }
  const collected = collectArtifactFiles(files.root, files.artifacts, input.limits, input.usedBytes, max - artifacts.length);
  return {
    artifacts: [...artifacts, ...collected.artifacts],
    result: lines.result,
    takenFollowups: lines.takenFollowups,
    notes: [...notes, ...collected.notes.slice(0, MAX_NOTES_PER_EXECUTION), ...omitted(lines.unnoted + Math.max(0, collected.notes.length - MAX_NOTES_PER_EXECUTION))],
  };
}

