/**
 * The MCP SDK's default JSON Schema validator is ajv, which the SDK's Node shim loads when
 * the server module loads (some 13 ms of evaluating ajv and ajv-formats at every start,
 * besides compiling them). The server only uses it to check an accepted form elicitation
 * against its schema. This plugin gives the SDK a shim whose validator loads the SDK's own
 * ajv validator on its first schema and hands every call to it: the same validation, paid
 * for only by a server that validates.
 */
export const lazyAjv = {
  name: 'lazy-ajv',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, async (args) => {
      if (args.pluginData?.real) return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: 'lazy-ajv-shims', namespace: 'lazy-ajv', pluginData: { real: real.path } };
    });
    // require() of an ESM module inside the bundle is initialised on that call, not at start.
    b.onLoad({ filter: /.*/, namespace: 'lazy-ajv' }, ({ pluginData }) => ({
      contents: `import process from 'node:process';
export { process };
export class DefaultJsonSchemaValidator {
  #validator;
  getValidator(schema) {
    this.#validator ??= new (require(${JSON.stringify(pluginData.real)}).DefaultJsonSchemaValidator)();
    return this.#validator.getValidator(schema);
  }
}
`,
      resolveDir: '.',
    }));
  },
};
