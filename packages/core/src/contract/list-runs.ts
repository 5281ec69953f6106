import { z } from 'zod';
import { singleLineText } from './control-characters.js';
import { RunItemSchema } from './run-item.js';
import { KnownRunSourceTypeSchema } from './run-source-type.js';
import { KnownRunStateSchema, type KnownRunState } from './run-state.js';
import { ArtifactTypeSchema } from './artifact-item.js';
import { RUN_REQUEST_LIMITS } from './run-agent-request.js';

export const PageInfoSchema = z.looseObject({
  has_next_page: z.boolean(),
  next_cursor: z.string().optional().describe('Pass as cursor to fetch the next page'),
});

export type PageInfo = z.infer<typeof PageInfoSchema>;

export const ListRunsResponseSchema = z.looseObject({
  runs: z.array(RunItemSchema),
  page_info: PageInfoSchema,
});

export type ListRunsResponse = z.infer<typeof ListRunsResponseSchema>;

export const LIST_SORT_FIELDS = ['updated_at', 'created_at', 'title', 'agent'] as const;
export const LIST_SORT_ORDERS = ['desc', 'asc'] as const;
export const LIST_LIMIT_MAX = 500;
export const LIST_LIMIT_DEFAULT = 20;

const timestamp = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp such as 2026-11-22T01:15:25Z' });
// A query string repeats `state` for several values; accept one value or many.
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).min(1).optional());

/**
 * The query of `GET /agent/runs`. Strict: an unknown parameter, state, source or sort is a
 * caller mistake, named rather than dropped. Numbers may arrive as strings (from a URL).
 */
export const ListRunsQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: `must be an integer from 1 to ${LIST_LIMIT_MAX}` })
    .int(`must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .min(1, `must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .max(LIST_LIMIT_MAX, `must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .optional()
    .describe(`Page size, 1..${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})`),
  cursor: z.string().min(1).optional().describe('The previous page’s next_cursor'),
  sort_by: z.enum(LIST_SORT_FIELDS, { error: `must be one of ${LIST_SORT_FIELDS.join(', ')}` }).optional().describe('Sort field (default updated_at)'),
  sort_order: z.enum(LIST_SORT_ORDERS, { error: `must be one of ${LIST_SORT_ORDERS.join(', ')}` }).optional().describe('Sort order (default desc)'),
  state: oneOrMany(KnownRunStateSchema).describe('Only runs in any of these states'),
  name: z.string().optional().describe('Config name'),
  config_name: z.string().optional().describe('The same filter as name'),
  model_id: z.string().optional(),
  creator: z.string().optional().describe('Creator uid'),
  source: KnownRunSourceTypeSchema.optional(),
  environment_id: z.string().optional(),
  skill_spec: z.string().optional(),
  skill: z.string().optional().describe('The same filter as skill_spec'),
  created_after: timestamp.optional(),
  created_before: timestamp.optional(),
  updated_after: timestamp.optional(),
  q: singleLineText(z.string()).optional().describe('Case-insensitive search in title, prompt and skill spec'),
  execution_location: z.enum(['LOCAL', 'REMOTE'], { error: 'must be LOCAL or REMOTE' }).optional(),
  schedule_id: z.string().optional().describe('Runs started by this schedule'),
  ancestor_run_id: z.string().optional().describe('This run and its descendants (by parent_run_id)'),
  artifact_type: ArtifactTypeSchema.optional().describe('Runs that produced an artifact of this type'),
  metadata: z
    .record(z.string().min(1), z.string())
    .refine((m) => Object.keys(m).length <= RUN_REQUEST_LIMITS.metadataKeys, {
      message: `must have at most ${RUN_REQUEST_LIMITS.metadataKeys} keys`,
    })
    .optional()
    .describe('Runs whose metadata has every given key with the given value; in a URL, metadata[key]=value'),
  executor: z.string().optional().describe('Executor uid'),
  automation_id: z.string().optional(),
  factory_uid: z.string().optional(),
});

const METADATA_PARAM = /^metadata\[(.+)\]$/;

/**
 * A URL's query as the input of ListRunsQuerySchema: a repeated name becomes an array and
 * `metadata[key]=value` becomes `metadata: { key: value }`. Unknown names are kept, so
 * the schema names them.
 */
export function listQueryFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, value] of params) {
    const meta = METADATA_PARAM.exec(name);
    if (meta) {
      const metadata = (raw.metadata ??= {}) as Record<string, string>;
      metadata[meta[1]!] = value;
      continue;
    }
    const prior = raw[name];
    raw[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return raw;
}

export type ParsedListRunsQuery = z.output<typeof ListRunsQuerySchema>;
/** What a caller passes: one state or several. */
export type ListRunsQuery = Omit<ParsedListRunsQuery, 'state'> & { state?: KnownRunState | KnownRunState[] | undefined };
