import { z } from 'zod';

/** One field at fault in an invalid request: where (`config.model_id`, '' for the whole body) and what. */
const IssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});

/**
 * An RFC 7807 problem body. Parsed leniently: a proxy or an older server may send
 * only part of it, and extension members are kept.
 */
export const ErrorBodySchema = z
  .looseObject({
    type: z.string().optional().describe('URI ending in the error code'),
    title: z.string().optional(),
    status: z.number().int().optional(),
    error: z.string().optional().describe('Title and detail in one line, for older clients'),
    detail: z.string().optional(),
    instance: z.string().optional().describe('The request path'),
    retryable: z.boolean().optional(),
    trace_id: z.string().optional(),
    issues: z
      .array(IssueSchema)
      .optional()
      // A malformed list is dropped, not a reason to lose the rest of the problem.
      .catch(undefined)
      .describe('For invalid_request: each field at fault and what would be valid'),
  })
  .describe('Problem details (RFC 7807)');

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The problem body of an error answer, or undefined when the text is not one (an HTML page, say). */
export function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The error code at the end of a problem `type` URI, if any. */
export function errorCodeOf(body: ErrorBody | undefined): string | undefined {
  const type = body?.type;
  if (!type) return undefined;
  const last = type.split('/').pop();
  return last || undefined;
}
