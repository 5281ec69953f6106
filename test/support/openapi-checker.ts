import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its function arrives as the module's `default`.
const addFormats = addFormatsModule.default;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** One answer that the document does not describe, or whose body it does not accept. */
export interface OpenApiMismatch {
  request: string;
  status: number;
  problem: string;
}

/**
 * Checks every answer a client receives against the server's own OpenAPI document: the path,
 * method and status must be documented, the content type must be one the document lists, and
 * a JSON body must validate against its schema. Hand `fetch` to any client (ours, the
 * official SDK) and read `mismatches` and `unexercised()` at the end.
 */
export class OpenApiChecker {
  readonly mismatches: OpenApiMismatch[] = [];
  readonly #operations: Operation[];
  readonly #exercised = new Set<string>();
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #ajv: Ajv;
  readonly #basePath: string;

  private constructor(document: { paths: Record<string, Record<string, { responses: Operation['responses'] }>> }, basePath: string) {
    this.#basePath = basePath;
    this.#ajv = new Ajv({ strict: false, allErrors: true, discriminator: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(nullableAsNull(document) as object, 'openapi.json');
    this.#operations = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        responses: operation.responses,
      })),
    );
  }

  /** Reads the document the server serves at `<baseURL>/openapi.json`. */
  static async load(baseURL: string): Promise<OpenApiChecker> {
    const res = await fetch(`${baseURL}/openapi.json`);
    if (!res.ok) throw new Error(`GET ${baseURL}/openapi.json answered ${res.status}`);
    return new OpenApiChecker((await res.json()) as never, new URL(baseURL).pathname.replace(/\/$/, ''));
  }

  /** A fetch that checks each answer it passes on (SSE bodies are checked for their content type only). */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const res = await fetch(request);
    await this.check(request.method, new URL(request.url), res.clone());
    return res;
  };

  /** Documented operations no answer has come from yet, as `METHOD /path`. */
  unexercised(): string[] {
    return this.#operations.map((op) => `${op.method} ${op.template}`).filter((name) => !this.#exercised.has(name));
  }

  private async check(method: string, url: URL, res: Response): Promise<void> {
    const path = url.pathname.startsWith(this.#basePath) ? url.pathname.slice(this.#basePath.length) : url.pathname;
    const request = `${method} ${path}`;
    const fail = (problem: string): void => void this.mismatches.push({ request, status: res.status, problem });
    if (path === '/openapi.json') return;
    const operation = this.#operations.find((op) => op.method === method && op.pattern.test(path));
    if (!operation) return fail('no documented operation has this method and path');
    this.#exercised.add(`${operation.method} ${operation.template}`);
    const status = String(res.status);
    const response = operation.responses[status] ?? operation.responses.default;
    if (!response) return fail(`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) {
      const body = await res.text();
      if (body !== '' && status !== '302') fail(`a body came with a status documented without one: ${body.slice(0, 200)}`);
      return;
    }
    if (!(contentType in content)) return fail(`content type ${contentType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`);
    if (contentType === 'text/event-stream') return void res.body?.cancel();
    const pointer = ['paths', operation.template, operation.method.toLowerCase(), 'responses', status in operation.responses ? status : 'default', 'content', contentType, 'schema']
      .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const validate = this.validator(`openapi.json#/${pointer}`);
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(`the body is not JSON: ${text.slice(0, 200)}`);
    }
    if (!validate(body)) {
      fail(this.#ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' }));
    }
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: ref });
      this.#validators.set(ref, validate);
    }
    return validate;
  }
}

/**
 * OpenAPI 3.0's `nullable: true` also sits beside `anyOf` and `$ref`, where JSON Schema has no
 * `type` to add null to; read it, as OpenAPI tools do, as "this schema, or null".
 */
function nullableAsNull(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsNull);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, nullableAsNull(value)] as const);
  const { nullable, ...rest } = Object.fromEntries(entries) as Record<string, unknown>;
  if (nullable !== true) return rest;
  return 'type' in rest ? { ...rest, nullable: true } : { anyOf: [rest, { type: 'null' }] };
}
