import { z } from 'zod';

/** Page size of the lists paged by sequence (schedules, named agents) when the caller names none. */
export const PAGE_LIMIT_DEFAULT = 100;
const PAGE_LIMIT_MAX = 500;
const limitError = `must be an integer from 1 to ${PAGE_LIMIT_MAX}`;

/** `limit` and `cursor` of a list paged as runs are: at most PAGE_LIMIT_MAX a page, the next page from the last one's `next_cursor`. */
export const pageQueryShape = {
  limit: z.coerce
    .number({ error: limitError })
    .int(limitError)
    .min(1, limitError)
    .max(PAGE_LIMIT_MAX, limitError)
    .optional()
    .describe(`Page size, 1..${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`),
  cursor: z.string().min(1).optional().describe('The previous page’s next_cursor'),
};
