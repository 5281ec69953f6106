import type { z } from 'zod';
import { input, json, output, problem } from '../../openapi/openapi-parts.js';
import type { OpenApiOperation } from '../../openapi/openapi-operation.js';

/** The answers every worker endpoint may give besides its own. */
const WORKER_PROBLEMS = {
  '400': problem('The body does not follow the worker protocol'),
  '401': problem('Missing or unknown worker token (an API key is not one)'),
};

/** A worker endpoint's operation: its body and answer from the protocol's schemas. */
export function workerOperation(
  operationId: string,
  summary: string,
  body: z.ZodType,
  answer: z.ZodType | undefined,
  more: Record<string, unknown> = {},
): OpenApiOperation {
  return {
    operationId,
    summary,
    'x-agent-runs-extension': true,
    requestBody: { required: true, content: json(input(body)) },
    responses: {
      ...(answer ? { '200': { description: 'Done', content: json(output(answer)) } } : { '204': { description: 'Done' } }),
      ...WORKER_PROBLEMS,
      ...more,
    },
  };
}
