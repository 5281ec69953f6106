import { closeSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { executionFiles, readAgentReport } from '../../src/executors/agent-protocol.js';
import { openAgentFile } from '../../src/executors/agent-tree.js';
import { recordChangesStart } from '../../src/executors/changes-patch.js';
import { harnessTranscriptLines } from '../../src/executors/harness/harness-executor.js';
import { harnessTurnMessages } from '../../src/executors/harness/harness-turns.js';
import { runWorkDir } from '../../src/executors/run-work-dir.js';
import { handoffFiles } from '../../src/runs/handoff-files.js';

/** What the server reads back from one run's tree (execution 1): every read of an agent's files, as the server makes it. */
export interface TreeReads {
  report: { result: string | undefined; artifacts: { name: string; text: string }[]; notes: string[] };
  handoff: string[];
  /** The bytes a handoff download of `notes.txt` would send, or null when it is refused. */
  download: string | null;
  transcript: string[];
  turns: string[];
  /** The repositories whose changes would be taken (git itself runs as the agent). */
  repositories: string[];
}

export function readRunTree(workRoot: string, runId: string): TreeReads {
  const files = executionFiles(workRoot, runId, 1);
  const limits = { maxFileBytes: 1 << 20, maxRunBytes: 1 << 24, maxArtifactsPerExecution: 50 };
  const report = readAgentReport(files, { number: 1, followups: [], conversation: [], attachments: [], limits, usedBytes: 0 });
  const opened = openAgentFile(workRoot, join(files.attachments, 'notes.txt'));
  let download: string | null = null;
  if (opened) {
    const buffer = Buffer.alloc(opened.size);
    readSync(opened.fd, buffer, 0, opened.size, 0);
    closeSync(opened.fd);
    download = buffer.toString('utf8');
  }
  const asked: string[] = [];
  recordChangesStart(workRoot, runWorkDir(workRoot, runId), (cwd) => {
    asked.push(cwd);
    return undefined;
  });
  return {
    report: {
      result: report.result,
      artifacts: report.artifacts.map((a) => ({ name: String(a.data['filepath']), text: a.content?.toString('utf8') ?? '' })),
      notes: report.notes,
    },
    handoff: handoffFiles(workRoot, runId),
    download,
    transcript: harnessTranscriptLines(workRoot, runId),
    turns: harnessTurnMessages(workRoot, runId, 1).map((m) => JSON.stringify(m.content)),
    repositories: asked.map((cwd) => cwd.slice(runWorkDir(workRoot, runId).length)),
  };
}
