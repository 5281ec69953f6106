import { z } from 'zod';
import { RunItemSchema } from './run-item.js';

/** Which of the agent's streams a piece of output came from. */
export const RunOutputStreamSchema = z.union([z.enum(['stdout', 'stderr']), z.string()]);

/** `output` event data: one chunk of the agent's output, in order. */
export const RunOutputDataSchema = z
  .looseObject({
    stream: RunOutputStreamSchema,
    text: z.string(),
    at: z.string().describe('When the server received it (RFC 3339)'),
  })
  .describe('A chunk of the agent output');

export type RunOutputData = z.infer<typeof RunOutputDataSchema>;

/** `skipped` event data: output older than the retention was dropped before it could be sent. */
export const RunSkippedDataSchema = z
  .looseObject({
    through_id: z.number().int().describe('Output events up to this id are gone'),
    bytes: z.number().int().describe('How many bytes of output were dropped in all'),
    message: z.string(),
  })
  .describe('Output that was dropped before it could be sent');

export type RunSkippedData = z.infer<typeof RunSkippedDataSchema>;

/** One stored chunk of output, as `GET /agent/runs/{runId}/output` returns it. */
export const RunOutputChunkSchema = RunOutputDataSchema.extend({ id: z.number().int() });

export type RunOutputChunk = z.infer<typeof RunOutputChunkSchema>;

/** `GET /agent/runs/{runId}/output?since=<id>`: the stored output after an event id. */
export const RunOutputPageSchema = z
  .looseObject({
    run_id: z.string(),
    chunks: z.array(RunOutputChunkSchema),
    next_since: z.number().int().describe('Pass as `since` to read what follows'),
    has_more: z.boolean().describe('More stored output follows this page'),
    dropped: z
      .looseObject({ through_id: z.number().int(), bytes: z.number().int() })
      .optional()
      .describe('Output before `since` was dropped to keep the per-run bound'),
  })
  .describe('The stored output of a run');

export type RunOutputPage = z.infer<typeof RunOutputPageSchema>;

/** The events of `GET /agent/runs/{runId}/events`, by name. */
export const RUN_EVENT_SCHEMAS = {
  run: RunItemSchema,
  output: RunOutputDataSchema,
  skipped: RunSkippedDataSchema,
  artifact: z.unknown(),
  followup: z.unknown(),
} as const;

export type RunEventName = keyof typeof RUN_EVENT_SCHEMAS;
