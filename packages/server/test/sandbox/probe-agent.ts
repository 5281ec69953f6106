import { nodeAgentCommand } from '../support/node-agent.js';

/**
 * An agent that tries what its prompt (JSON) lists and writes what happened to
 * `result.json` in its working directory: reads, listings, writes, direct connections,
 * and HTTP requests and CONNECT tunnels through its proxy (HTTP_PROXY, when it has one).
 */
const PROBE = `
const fs = require('node:fs'), net = require('node:net'), http = require('node:http');
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', async () => {
  const plan = JSON.parse(input);
  const out = { uid: process.getuid(), home: process.env.HOME, proxy: process.env.HTTP_PROXY || null };
  const code = (f) => { try { f(); return 'ok'; } catch (e) { return e.code || e.message; } };
  for (const p of plan.read || []) out['read ' + p] = code(() => fs.readFileSync(p));
  for (const p of plan.list || []) { try { out['list ' + p] = fs.readdirSync(p).sort(); } catch (e) { out['list ' + p] = e.code; } }
  for (const p of plan.write || []) out['write ' + p] = code(() => fs.writeFileSync(p, 'x'));
  for (const [host, port] of plan.connect || []) {
    out['connect ' + host + ':' + port] = await new Promise((resolve) => {
      const s = net.connect(port, host);
      const done = (v) => { s.destroy(); resolve(v); };
      s.on('connect', () => done('ok')); s.on('error', (e) => done(e.code)); setTimeout(() => done('timeout'), 3000);
    });
  }
  for (const url of plan.proxied || []) {
    out['proxied ' + url] = await new Promise((resolve) => {
      if (!process.env.HTTP_PROXY) return resolve('no proxy');
      const proxy = new URL(process.env.HTTP_PROXY);
      const req = http.get({ host: proxy.hostname, port: proxy.port, path: url }, (res) => {
        let body = ''; res.on('data', (d) => (body += d)).on('end', () => resolve(res.statusCode + ' ' + body.trim()));
      });
      req.on('error', (e) => resolve(e.code)); req.setTimeout(5000, () => { req.destroy(); resolve('timeout'); });
    });
  }
  for (const target of plan.tunnel || []) {
    out['tunnel ' + target] = await new Promise((resolve) => {
      if (!process.env.HTTP_PROXY) return resolve('no proxy');
      const proxy = new URL(process.env.HTTP_PROXY);
      const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target });
      req.on('connect', (res, socket) => { socket.destroy(); resolve(String(res.statusCode)); });
      req.on('error', (e) => resolve(e.code)); req.setTimeout(5000, () => { req.destroy(); resolve('timeout'); });
      req.end();
    });
  }
  if (plan.unshare) out.unshare = require('node:child_process').spawnSync('unshare', ['-U', '-r', 'true']).status;
  if (plan.print) console.log(plan.print.map((name) => process.env[name]).join(' '));
  for (const name of plan.encoded || []) console.log(Buffer.from(process.env[name]).toString('base64') + ' ' + encodeURIComponent(process.env[name]));
  for (const name of plan.embedded || []) console.log('env: ' + Buffer.from('KEY=' + process.env[name] + '\\n').toString('base64'));
  // Written in two pieces, apart in time: the server reads them as two chunks.
  for (const name of plan.split || []) {
    const value = process.env[name];
    process.stdout.write('split:' + value.slice(0, 7));
    await new Promise((r) => setTimeout(r, 300));
    process.stdout.write(value.slice(7) + ':end\\n');
  }
  if (plan.artifactBytes) fs.writeFileSync(process.env.AGENT_RUNS_ARTIFACTS_DIR + '/notes.bin', Buffer.alloc(plan.artifactBytes));
  out.own = code(() => { fs.writeFileSync('own.txt', 'mine'); fs.readFileSync('own.txt'); });
  fs.writeFileSync('result.json', JSON.stringify(out));
  if (plan.fail) { process.stderr.write(plan.fail.map((name) => process.env[name]).join(' ') + '\\n'); process.exit(3); }
});`;

export const probeAgentCommand = nodeAgentCommand(PROBE);

/** The probe run by another Node (one the agent's user may run). */
export const probeAgentCommandWith = (node: string) => nodeAgentCommand(PROBE, node);
