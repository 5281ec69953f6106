// Bundles the compiled action (packages/action/dist, from `tsc -b`) into the repository's
// dist/ with @vercel/ncc: dist/index.js serves both the main and the post step.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const entry = join(here, '..', 'dist', 'index.js');
const out = join(root, 'dist');

const ncc = createRequire(import.meta.url)('@vercel/ncc');
const { code, assets } = await ncc(entry, {
  cache: false,
  minify: true,
  sourceMap: false,
  target: 'es2022',
  license: 'licenses.txt',
  quiet: true,
});

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'index.js'), code);
for (const [name, asset] of Object.entries(assets)) {
  mkdirSync(dirname(join(out, name)), { recursive: true });
  writeFileSync(join(out, name), asset.source, { mode: asset.permissions });
}
const kb = (Buffer.byteLength(code) / 1024).toFixed(0);
console.log(`dist/index.js ${kb} kB${Object.keys(assets).length ? ` + ${Object.keys(assets).join(', ')}` : ''}`);
