// Bundles the compiled bin into one file. Hosts spawn the server for every session, and
// loading one file instead of some four hundred modules halves the time to `initialize`.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { lazyAjv } from './lazy-ajv.mjs';

/**
 * zod's messages come in English unless a program picks another locale (z.config), which
 * nothing in this server does; its `locales` namespace still makes a bundle load all of
 * them at start. This keeps only `en` in that namespace: same messages, sooner first answer.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(b) {
    // The module is named without the machine's path, which would otherwise show in the bundle.
    b.onResolve({ filter: /\/locales\/index\.js$/ }, ({ path, importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer)
        ? { path: 'zod/v4/locales/index.js', namespace: 'english-only-zod', pluginData: { dir: dirname(join(dirname(importer), path)) } }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, ({ pluginData }) => ({
      contents: `export { default as en } from ${JSON.stringify(join(pluginData.dir, 'en.js'))};`,
      resolveDir: pluginData.dir,
    }));
  },
};

/**
 * An ESM bundle imports Node's built-ins at its top, all of them at start, even those only
 * the HTTP mode uses; and each such import builds a module facade that reads every export,
 * which on Node 22+ runs node:http's lazy WebSocket getter and loads Node's own undici
 * (some 30 ms). Taken with require() instead, a built-in loads when the module using it is
 * first initialised, and only what is used of it.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, ({ path, kind }) => (kind === 'import-statement' ? { path, namespace: 'builtins-by-require' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtins-by-require' }, ({ path }) => ({ contents: `module.exports = require(${JSON.stringify(path)});` }));
  },
};

/**
 * undici, 0.7 MB of the 1.8 MB bundle, only sends requests to the runs API, and core loads
 * it (import('undici')) on the first one. It goes in a bundle of its own beside the main one,
 * so that a start does not read, decode and compile it.
 */
const UNDICI_FILE = 'agent-runs-mcp-undici.mjs';
const undiciApart = {
  name: 'undici-apart',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, ({ kind }) => (kind === 'dynamic-import' ? { path: `./${UNDICI_FILE}`, external: true } : undefined));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Without comments and whitespace the file is a third smaller and pure ASCII, which Node
  // decodes and compiles sooner; names are kept, so stack traces still read. The licences
  // of what it bundles go beside it (agent-runs-mcp.mjs.LEGAL.txt).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'external',
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: [new URL('../dist/bin/agent-runs-mcp.js', import.meta.url).pathname],
  outfile: new URL('../dist/agent-runs-mcp.mjs', import.meta.url).pathname,
  plugins: [englishOnlyZod, builtinsByRequire, lazyAjv, undiciApart],
});

// undici is CommonJS, and a bundle of it exports only a default: its named exports (what
// import('undici') gives core) are listed here from the copy core resolves.
const coreDist = new URL('../../core/dist/', import.meta.url).pathname;
const undiciNames = Object.keys(createRequire(coreDist)('undici')).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
await build({
  ...common,
  stdin: {
    contents: `import undici from 'undici';\nexport const { ${undiciNames.join(', ')} } = undici;\nexport default undici;\n`,
    resolveDir: coreDist,
    sourcefile: 'undici-exports.mjs',
  },
  outfile: new URL(`../dist/${UNDICI_FILE}`, import.meta.url).pathname,
  plugins: [builtinsByRequire],
});
