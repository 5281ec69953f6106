import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it.each([
    ['a YAML syntax error', 'server.yaml', 'environments:\n  web: [unclosed\n', /, line \d: not valid YAML or JSON: /],
    ['an unknown key', 'server.yaml', 'environments:\n  web:\n    setup_comands: [make]\n', /, line 3: environments\.web: unknown key\(s\) setup_comands$/],
    ['a wrong type', 'server.yaml', 'environments:\n  web:\n    setup_commands: make\n', /, line 3: environments\.web\.setup_commands: Invalid input: expected array/],
    ['a missing local repository', 'server.yaml', 'environments:\n  web:\n    repos:\n      - url: ./not-there\n', /, line 4: environments\.web\.repos\[0\]\.url: \S+not-there does not exist/],
    ['a skill directory that is not one', 'server.json', '{\n  "skill_directories": ["./nope"]\n}\n', /, line 2: skill_directories\[0\]: \S+nope is not a directory\.$/],
    ['an unknown time zone', 'server.json', '{"schedule_time_zone": "Mars/Olympus"}', /, line 1: schedule_time_zone: "Mars\/Olympus" is not an IANA time zone/],
    ['too few sandbox processes', 'server.yaml', 'sandbox_max_processes: 4\n', /, line 1: sandbox_max_processes: must be a whole number from 16 to 1000000$/],
    ['a /tmp size that is not whole MiB', 'server.json', '{"sandbox_tmp_size_mb": "1G"}', /, line 1: sandbox_tmp_size_mb: must be a whole number from 16 to 1048576 \(MiB\)$/],
    ['a JSON syntax error', 'server.json', '{\n  "environments": {,}\n}', /, line 2: not valid YAML or JSON/],
    ['a kubernetes: section without an image', 'worker.yaml', 'kubernetes:\n  namespace: agents\n', /, line 2: kubernetes\.image: must name the image the Jobs' pods run/],
    ['a namespace that is no Kubernetes name', 'worker.yaml', 'kubernetes:\n  image: a:1\n  namespace: Agents_1\n', /, line 3: kubernetes\.namespace: must be a Kubernetes name/],
    ['a misspelt kubernetes key', 'worker.yaml', 'kubernetes:\n  image: a:1\n  nodeSelector: {}\n', /, line 3: kubernetes: unknown key\(s\) nodeSelector$/],
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
    });
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
