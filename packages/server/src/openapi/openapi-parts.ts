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

/** A success answer with a JSON body, the named component. */
export const ok = (description: string, name: string) => ({ '200': { description, content: json(ref(name)) } });
/** A create's success answer: 201, as the published contract has it. */
export const created = (description: string, name: string) => ({ '201': { description, content: json(ref(name)) } });

/** A contract query schema's fields as optional query parameters. */
export const queryParameters = (query: z.ZodObject) =>
  Object.entries(query.shape).map(([name, s]) => ({ name, in: 'query', required: false, schema: input(s as z.ZodType) }));
