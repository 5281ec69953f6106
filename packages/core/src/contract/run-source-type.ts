import { z } from 'zod';

export const KNOWN_RUN_SOURCE_TYPES = [
  'LINEAR',
  'API',
  'SLACK',
  'LOCAL',
  'SCHEDULED_AGENT',
  'WEB_APP',
  'GITHUB_ACTION',
  'CLOUD_MODE',
  'CLI',
  'JIRA',
  'SELF_IMPROVEMENT',
  'GITHUB_WEBHOOK',
  'GITLAB_WEBHOOK',
  'AUTOFIX',
  'RUN_SCORER',
  'ORCHESTRATION',
] as const;

export type KnownRunSourceType = (typeof KNOWN_RUN_SOURCE_TYPES)[number];
/** Where a run came from; unknown values from newer servers are kept like unknown states. */
export type RunSourceType = KnownRunSourceType | (string & {});

export const KnownRunSourceTypeSchema = z.enum(KNOWN_RUN_SOURCE_TYPES, {
  error: `must be one of ${KNOWN_RUN_SOURCE_TYPES.join(', ')}`,
});
export const RunSourceTypeSchema = z.union([KnownRunSourceTypeSchema, z.string().min(1)]) as unknown as z.ZodType<RunSourceType>;
