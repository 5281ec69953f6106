import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessTurnMessages, harnessTurnsPath, MAX_TURNS_BYTES, TurnsWriter } from '../src/executors/harness/harness-turns.js';

const RUN = 'run-1';

function turnsFile(): { workRoot: string; path: string; writer: TurnsWriter } {
  const workRoot = mkdtempSync(join(tmpdir(), 'agent-runs-turns-'));
  const path = harnessTurnsPath(workRoot, RUN, 1);
  mkdirSync(dirname(path), { recursive: true });
  return { workRoot, path, writer: new TurnsWriter(openSync(path, 'w', 0o600)) };
}

describe("a harness execution's turn as conversation messages", () => {
  it('merges streamed text, pairs each tool call with its result, and skips lines that are not its records', async () => {
    const { workRoot, path, writer } = turnsFile();
    writer.add('text', 'Looking at the parser.\n');
    writer.add('text', 'It needs a change.\n');
    writer.add('action', '$ npm test\n');
    writer.add('result', '  PASS parser\n  1 passed\n');
    writer.add('result', '  (an orphan result, no call before it)\n');
    writer.add('text', 'Done.\n');
    await writer.end();
    writeFileSync(path, '{"part":"action","text":1}\nnot json\n', { flag: 'a' });
    const messages = harnessTurnMessages(workRoot, RUN, 1);
    expect(messages.map((m) => [m.role, m.content[0]!.type])).toEqual([
      ['assistant', 'text'],
      ['assistant', 'action'],
      ['tool', 'action_result'],
      ['assistant', 'text'],
    ]);
    expect(messages[0]!.content[0]).toMatchObject({ text: 'Looking at the parser.\nIt needs a change.' });
    expect(messages[1]!.content[0]).toMatchObject({ name: 'shell', input: { line: '$ npm test' } });
    expect(messages[2]!.content[0]).toMatchObject({ action_id: (messages[1]!.content[0] as { id: string }).id, output: { text: 'PASS parser\n1 passed' } });
  });

  it('keeps at most its bound, and never follows a link or opens a FIFO an agent planted in its place', async () => {
    const { workRoot, path, writer } = turnsFile();
    const big = 'x'.repeat(64 * 1024);
    // Each part is cut to 16 KiB; twice the bound's worth of them is written.
    for (let i = 0; i < (2 * MAX_TURNS_BYTES) / (16 * 1024); i++) writer.add('action', `$ echo ${big}\n`);
    await writer.end();
    const kept = harnessTurnMessages(workRoot, RUN, 1);
    expect(kept.length).toBeGreaterThan(MAX_TURNS_BYTES / (17 * 1024));
    expect(kept.length).toBeLessThanOrEqual(MAX_TURNS_BYTES / (16 * 1024));
    expect(statSync(path).size).toBeLessThanOrEqual(MAX_TURNS_BYTES);

    const outside = join(workRoot, 'outside.jsonl');
    writeFileSync(outside, `${JSON.stringify({ part: 'text', text: 'from outside', at: '2026-01-01T00:00:00Z' })}\n`);
    rmSync(path);
    symlinkSync(outside, path);
    expect(harnessTurnMessages(workRoot, RUN, 1)).toEqual([]);
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect(harnessTurnMessages(workRoot, RUN, 1)).toEqual([]);
    // An execution with no harness has no record.
    expect(harnessTurnMessages(workRoot, RUN, 2)).toEqual([]);
  });
});
