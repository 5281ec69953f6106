import { z } from 'zod';

/** The pieces every part of the OpenAPI document is written with. */
export type JsonSchema = Record<string, unknown>;

/** A contract schema as JSON Schema: requests as a caller writes them, responses as the server sends them. */
export const schema = (s: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as JsonSchema;
export const input = (s: z.ZodType): JsonSchema => schema(s, 'input');
export const output = (s: z.ZodType): JsonSchema => schema(s, 'output');

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (s: unknown) => ({ 'application/json': { schema: s } });
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Error') } } });
