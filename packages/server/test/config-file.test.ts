import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../src/config/config-file.js';
import { tempTree } from './support/server-config.js';

const bin = fileURLToPath(new URL('../bin/agent-runs-server.js', import.meta.url));

function configFile(name: string, text: string): string {
  const dir = tempTree({ 'skills/.keep': '' });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('the configuration file', () => {
  it('reads YAML with relative paths resolved against the file', () => {
    const file = configFile(
      'server.yaml',
      ['schedule_time_zone: Europe/Paris', 'skill_directories: [./skills]', 'environments:', '  web:', '    repos:', '      - url: https://github.com/acme/web.git', '    setup_commands: [npm ci]', ''].join('\n'),
    );
    const config = loadConfigFile(file);
    expect(config.scheduleTimeZone).toBe('Europe/Paris');
    expect(config.skillDirectories).toEqual([join(file, '..', 'skills')]);
    expect(config.environments).toEqual([
      { id: 'web', name: 'web', description: undefined, setupCommands: ['npm ci'], repos: [{ url: 'https://github.com/acme/web.git', path: 'web', owner: 'acme', repo: 'web' }] },
    ]);
  });

  it('reads a repository\'s pull_requests settings (a token or a GitHub App), off unless asked, with GitHub\'s API by default', () => {
    const file = configFile(
      'server.yaml',
      [
        'secrets:',
        '  GH_TOKEN: { from_env: GH_TOKEN }',
        '  APP_KEY: { from_env: APP_KEY }',
        'environments:',
        '  web:',
        '    repos:',
        '      - url: https://github.com/acme/web.git',
        '        pull_requests: { mode: draft, credential: GH_TOKEN, author: { name: Bot, email: bot@example.com } }',
        '      - url: https://github.com/acme/api.git',
        '        pull_requests: { mode: ready, base: main, credential: GH_TOKEN, api_url: "https://ghe.example.com/api/v3/" }',
        '      - url: https://github.com/acme/docs.git',
        '        pull_requests: { base: main }',
        '      - url: https://github.com/acme/site.git',
        '        pull_requests: { credential: { app_id: 12, private_key: APP_KEY } }',
        '',
      ].join('\n'),
    );
    const [web] = loadConfigFile(file, { GH_TOKEN: 'ghp_x', APP_KEY: 'key' }).environments;
    expect(web!.repos.map((r) => r.pullRequests)).toEqual([
      { mode: 'draft', base: undefined, credential: { kind: 'token', secret: 'GH_TOKEN' }, apiUrl: 'https://api.github.com', author: { name: 'Bot', email: 'bot@example.com' } },
      { mode: 'ready', base: 'main', credential: { kind: 'token', secret: 'GH_TOKEN' }, apiUrl: 'https://ghe.example.com/api/v3', author: undefined },
      undefined,
      { mode: 'off', base: undefined, credential: { kind: 'app', appId: 12, privateKey: 'APP_KEY', installationId: undefined }, apiUrl: 'https://api.github.com', author: undefined },
    ]);
  });

  const prRepo = (settings: string) =>
    `secrets:\n  GH_TOKEN: { from_env: GH_TOKEN }\nenvironments:\n  web:\n    repos:\n      - url: https://github.com/acme/web.git\n        pull_requests: ${settings}\n`;
  it.each([
    ['an unknown mode', prRepo('{ mode: open, credential: GH_TOKEN }'), /, line 7: environments\.web\.repos\[0\]\.pull_requests\.mode: must be draft, ready or off$/],
    ['no credential', prRepo('{ mode: draft }'), /, line 7: environments\.web\.repos\[0\]\.pull_requests: mode draft needs credential: the name of a secret declared under secrets/],
    ['an undeclared credential', prRepo('{ mode: draft, credential: OTHER }'), /, line 7: environments\.web\.repos\[0\]\.pull_requests\.credential: "OTHER" is not declared under secrets \(declared: GH_TOKEN\)\.$/],
    ['a GitHub App without its key', prRepo('{ mode: draft, credential: { app_id: 1 } }'), /pull_requests\.credential: must name a secret declared under secrets that holds a GitHub token .*or be a GitHub App: \{ app_id: 123, private_key: SECRET_NAME/],
    ['a GitHub App key not declared', prRepo('{ mode: draft, credential: { app_id: 1, private_key: NOPE } }'), /pull_requests\.credential\.private_key: "NOPE" is not declared under secrets \(declared: GH_TOKEN\)\.$/],
    ['a credential the agent is given too', prRepo('{ mode: draft, credential: GH_TOKEN }').replace('  web:\n', '  web:\n    secrets: [GH_TOKEN]\n'), /pull_requests\.credential: "GH_TOKEN" is also listed under environments\.web\.secrets, which gives it to the agent/],
    ['an API URL that is none', prRepo('{ mode: draft, credential: GH_TOKEN, api_url: "ftp://x" }'), /pull_requests\.api_url: must be an http\(s\) URL of a GitHub API/],
    ['an author without e-mail', prRepo('{ mode: draft, credential: GH_TOKEN, author: { name: Bot, email: nope } }'), /pull_requests\.author\.email: must be an e-mail address$/],
  ])('names the pull_requests field for %s', (_what, text, expected) => {
    const file = configFile('server.yaml', text);
    expect(() => loadConfigFile(file, { GH_TOKEN: 'ghp_x' })).toThrow(expected);
  });

  it.each([
    ['a YAML syntax error', 'server.yaml', 'environments:\n  web: [unclosed\n', /, line \d: not valid YAML or JSON: /],
    ['an unknown key', 'server.yaml', 'environments:\n  web:\n    setup_comands: [make]\n', /, line 3: environments\.web: unknown key\(s\) setup_comands$/],
    ['a wrong type', 'server.yaml', 'environments:\n  web:\n    setup_commands: make\n', /, line 3: environments\.web\.setup_commands: Invalid input: expected array/],
    ['a missing local repository', 'server.yaml', 'environments:\n  web:\n    repos:\n      - url: ./not-there\n', /, line 4: environments\.web\.repos\[0\]\.url: \S+not-there does not exist/],
    ['a skill directory that is not one', 'server.json', '{\n  "skill_directories": ["./nope"]\n}\n', /, line 2: skill_directories\[0\]: \S+nope is not a directory\.$/],
    ['an unknown time zone', 'server.json', '{"schedule_time_zone": "Mars/Olympus"}', /, line 1: schedule_time_zone: "Mars\/Olympus" is not an IANA time zone/],
    ['too few sandbox processes', 'server.yaml', 'sandbox_max_processes: 4\n', /, line 1: sandbox_max_processes: must be a whole number from 16 to 1000000$/],
    ['a /tmp size that is not whole MiB', 'server.json', '{"sandbox_tmp_size_mb": "1G"}', /, line 1: sandbox_tmp_size_mb: must be a whole number from 16 to 1048576 \(MiB\)$/],
    ['an orchestration depth out of range', 'server.yaml', 'orchestration:\n  max_depth: 101\n', /, line 2: orchestration\.max_depth: must be a whole number from 0 to 100$/],
    ['an unknown orchestration limit', 'server.yaml', 'orchestration:\n  max_children: 3\n', /, line 2: orchestration: unknown key\(s\) max_children$/],
    ['a JSON syntax error', 'server.json', '{\n  "environments": {,}\n}', /, line 2: not valid YAML or JSON/],
    ['a kubernetes: section without an image', 'worker.yaml', 'kubernetes:\n  namespace: agents\n', /, line 2: kubernetes\.image: must name the image the Jobs' pods run/],
    ['a namespace that is no Kubernetes name', 'worker.yaml', 'kubernetes:\n  image: a:1\n  namespace: Agents_1\n', /, line 3: kubernetes\.namespace: must be a Kubernetes name/],
    ['a misspelt kubernetes key', 'worker.yaml', 'kubernetes:\n  image: a:1\n  nodeSelector: {}\n', /, line 3: kubernetes: unknown key\(s\) nodeSelector$/],
    ['a dispatch: section without its command', 'worker.yaml', 'dispatch:\n  cancel_command: ./cancel\n', /, line 2: dispatch\.command: /],
    ['a dispatch timeout of no time', 'worker.yaml', 'dispatch:\n  command: ./dispatch\n  timeout_seconds: 0\n', /, line 3: dispatch\.timeout_seconds: must be a whole number from 1 to 3600 \(seconds\)$/],
  ])('names the file, the line and the key for %s', (_what, name, text, expected) => {
    const file = configFile(name, text);
    expect(() => loadConfigFile(file)).toThrow(new RegExp(`^Configuration file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}${expected.source}`));
  });

  it("reads the kubernetes: section a worker's Jobs are made from, Kubernetes' own shapes passed on as they are", () => {
    const file = configFile(
      'worker.yaml',
      [
        'kubernetes:',
        '  namespace: agents',
        '  image: registry.example/agent:1',
        '  failed_job_ttl_seconds: 3600',
        '  resources: { limits: { memory: 4Gi, cpu: 2 } }',
        '  node_selector: { pool: agents }',
        '  tolerations: [{ key: agents, operator: Exists, effect: NoSchedule }]',
        '  service_account_name: agent-runner',
        '  runtime_class_name: gvisor',
        '  env_from_secrets: [model-keys]',
        '  secret_env: { ANTHROPIC_API_KEY: { secret: model-keys, key: anthropic } }',
        '',
      ].join('\n'),
    );
    expect(loadConfigFile(file).kubernetes).toEqual({
      namespace: 'agents',
      image: 'registry.example/agent:1',
      imagePullPolicy: undefined,
      entrypoint: undefined,
      failedJobTtlSeconds: 3600,
      resources: { limits: { memory: '4Gi', cpu: 2 } },
      nodeSelector: { pool: 'agents' },
      tolerations: [{ key: 'agents', operator: 'Exists', effect: 'NoSchedule' }],
      serviceAccountName: 'agent-runner',
      runtimeClassName: 'gvisor',
      envFromSecrets: ['model-keys'],
      secretEnv: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } },
    });
  });

  it("refuses a kubernetes.secret_env that would set the run's own variables or names no Secret's key", () => {
    const own = configFile('worker.yaml', ['kubernetes:', '  image: a:1', '  secret_env: { AGENT_RUNS_JOB_TOKEN: { secret: keys, key: token } }', ''].join('\n'));
    expect(() => loadConfigFile(own)).toThrow(/kubernetes\.secret_env\.AGENT_RUNS_JOB_TOKEN.*AGENT_RUNS_\* variables are the run's own/);
    const value = configFile('worker.yaml', ['kubernetes:', '  image: a:1', '  secret_env: { MODEL_KEY: sk-plain-value }', ''].join('\n'));
    expect(() => loadConfigFile(value)).toThrow(/kubernetes\.secret_env\.MODEL_KEY.*must be \{ secret: /);
  });

  it("reads the dispatch: section of a worker's dispatch backend, its programs' paths made absolute from the file's directory", () => {
    const file = configFile('worker.yaml', ['dispatch:', '  command: ./bin/dispatch-run', '  cancel_command: /usr/local/bin/cancel-run', '  timeout_seconds: 30', '  silence_timeout_seconds: 120', ''].join('\n'));
    expect(loadConfigFile(file).dispatch).toEqual({ command: join(dirname(file), 'bin/dispatch-run'), cancelCommand: '/usr/local/bin/cancel-run', timeoutMs: 30_000, silenceTimeoutMs: 120_000 });
  });

  it('keeps the server from starting, with the message and no stack trace', () => {
    const file = configFile('server.yaml', 'environments:\n  web:\n    setup_comands: [make]\n');
    const result = spawnSync(process.execPath, [bin, '--memory', '--port', '0', '--config', file], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`agent-runs-server: Configuration file ${file}, line 3: environments.web: unknown key(s) setup_comands\n`);
    const viaEnv = spawnSync(process.execPath, [bin, '--memory', '--port', '0'], {
      encoding: 'utf8',
      timeout: 15_000,
      env: { ...process.env, AGENT_RUNS_SERVER_CONFIG: join(file, '..', 'missing.yaml') },
    });
    expect(viaEnv.status).toBe(2);
    expect(viaEnv.stderr).toMatch(/missing\.yaml: not found\.\n$/);
  });
});
