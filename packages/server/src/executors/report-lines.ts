import { z } from 'zod';
import { formatIssues } from '@agent-runs/core/contract';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';

const MAX_TEXT = 500;
const MAX_RESULT = 10_000;
const MAX_PLAN = 256 * 1024;

const webUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'must be an http(s) URL');
const short = z.string().trim().min(1).max(MAX_TEXT);

/** One JSON line of the report file; `type` is matched without regard to case. */
const ReportLineSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('PULL_REQUEST'), url: webUrl, branch: short }),
  z.looseObject({ type: z.literal('PLAN'), title: short, content: z.string().max(MAX_PLAN) }),
  z.looseObject({ type: z.literal('EXTERNAL_REFERENCE'), url: webUrl, title: short.optional(), reference_type: short.optional() }),
  z.looseObject({ type: z.literal('RESULT'), message: z.string().trim().min(1).max(MAX_RESULT) }),
  z.looseObject({ type: z.literal('FOLLOWUP_TAKEN'), id: z.string().min(1).max(200) }),
]);

export const REPORT_LINE_TYPES = ['PULL_REQUEST', 'PLAN', 'EXTERNAL_REFERENCE', 'RESULT', 'FOLLOWUP_TAKEN'] as const;

export interface ReportReading {
  artifacts: NewArtifact[];
  /** The last RESULT line's message: the run's status message. */
  result?: string;
  takenFollowups: string[];
  /** One line per skipped line, for the run's output, up to the cap. */
  notes: string[];
  /** Skipped lines past the cap, told in one summary line rather than one each. */
  unnoted: number;
}

/**
 * Reads the report file's lines; a line that is not JSON or not a known report is skipped
 * with a note, up to `maxNotes` (a file of junk must not bury the agent's own output).
 */
export function readReportLines(text: string, makeUid: () => string, maxNotes = Infinity): ReportReading {
  const reading: ReportReading = { artifacts: [], takenFollowups: [], notes: [], unnoted: 0 };
  const note = (text: () => string) => {
    if (reading.notes.length < maxNotes) reading.notes.push(text());
    else reading.unnoted++;
  };
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const where = `report line ${index + 1}`;
    // Past the cap, a line that cannot be an object is counted without the cost of a failed parse.
    if (reading.notes.length >= maxNotes && line[0] !== '{') {
      reading.unnoted++;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      note(() => `${where} is not JSON; skipped.`);
      return;
    }
    if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') {
      value = { ...value, type: (value as { type: string }).type.toUpperCase() };
    }
    const parsed = ReportLineSchema.safeParse(value);
    if (!parsed.success) {
      note(() => `${where} was skipped: ${formatIssues(parsed.error, 'line').join('; ')} (type is one of ${REPORT_LINE_TYPES.join(', ')}).`);
      return;
    }
    const entry = parsed.data;
    switch (entry.type) {
      case 'PULL_REQUEST':
        reading.artifacts.push({ type: 'PULL_REQUEST', data: { url: entry.url, branch: entry.branch } });
        break;
      case 'PLAN': {
        const uid = makeUid();
        reading.artifacts.push({ type: 'PLAN', data: { document_uid: uid, notebook_uid: uid, title: entry.title, content: entry.content } });
        break;
      }
      case 'EXTERNAL_REFERENCE':
        reading.artifacts.push({
          type: 'EXTERNAL_REFERENCE',
          data: { url: entry.url, reference_type: entry.reference_type ?? 'link', title: entry.title || undefined },
        });
        break;
      case 'RESULT':
        reading.result = entry.message;
        break;
      case 'FOLLOWUP_TAKEN':
        reading.takenFollowups.push(entry.id);
        break;
    }
  });
  return reading;
}
