import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeFileName } from '@agent-runs/core';
import type { NewArtifact } from '../store/artifact-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
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
  conversation: string;
  followup: string;
  inbox: string;
  report: string;
  artifacts: string;
  attachments: string;
}

/** Writes what the agent reads (conversation, current follow-up, attachments) and makes the directories it writes to. */
export function prepareExecutionFiles(workRoot: string, runId: string, input: ExecutionInput): ExecutionFiles {
  const dir = join(protocolDir(workRoot, runId), 'executions', String(input.number));
  const files: ExecutionFiles = {
    conversation: join(dir, 'conversation.jsonl'),
    followup: join(dir, 'followup.txt'),
    inbox: join(dir, 'inbox.jsonl'),
    report: join(dir, 'report.jsonl'),
    artifacts: join(dir, 'artifacts'),
    attachments: attachmentsDir(workRoot, runId),
  };
  mkdirSync(files.artifacts, { recursive: true });
  writeFileSync(files.conversation, input.conversation.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  writeFileSync(files.followup, input.followups.map((f) => f.message).join('\n\n'));
  writeFileSync(files.inbox, '');
  writeFileSync(files.report, '');
  // Written once, before the first execution: later ones see the directory as the agent left it.
  if (!existsSync(files.attachments)) {
    mkdirSync(files.attachments, { recursive: true });
    const used = new Set<string>();
    input.attachments.forEach((attachment, i) => {
      let name = safeFileName(attachment.file_name, `attachment-${i + 1}`);
      if (used.has(name)) name = `${i + 1}-${name}`;
      used.add(name);
      writeFileSync(join(files.attachments, name), attachment.data);
    });
  }
  return files;
}

/** Appends a follow-up to the inbox a running agent may watch. */
export function deliverToInbox(files: ExecutionFiles, followup: FollowupMessage): void {
  appendFileSync(files.inbox, `${JSON.stringify(followup)}\n`);
}

function readBounded(path: string): { text: string; truncated: boolean } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { text: '', truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_REPORT_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, read).toString('utf8'), truncated: size > MAX_REPORT_BYTES };
  } finally {
    closeSync(fd);
  }
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
  const { text, truncated } = readBounded(files.report);
  // A line cut at the size limit is dropped rather than misread.
  const complete = truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  const lines = readReportLines(complete, timeOrderedId, MAX_NOTES_PER_EXECUTION);
  const notes = [...lines.notes];
  if (truncated) notes.push(`the report file is larger than ${MAX_REPORT_BYTES} bytes; lines past that were ignored.`);
  const max = input.limits.maxArtifactsPerExecution;
  let artifacts = lines.artifacts;
  if (artifacts.length > max) {
    notes.push(`the report names ${artifacts.length} artifacts, over the limit of ${max} per execution; the first ${max} were kept.`);
    artifacts = artifacts.slice(0, max);
  }
  const collected = collectArtifactFiles(files.artifacts, input.limits, input.usedBytes, max - artifacts.length);
  return {
    artifacts: [...artifacts, ...collected.artifacts],
    result: lines.result,
    takenFollowups: lines.takenFollowups,
    notes: [...notes, ...collected.notes.slice(0, MAX_NOTES_PER_EXECUTION), ...omitted(lines.unnoted + Math.max(0, collected.notes.length - MAX_NOTES_PER_EXECUTION))],
  };
}

