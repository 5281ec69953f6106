import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { issuePath } from '@agent-runs/core/contract';
import { isTimeZone } from '@agent-runs/core/cron';
import { ConfigFileSchema, insideParent, type ConfigFile } from './config-file-schema.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import { credentialSecrets, type DeclaredWebhook, type WorkerToken, type EnvironmentConfig, type DispatchSettings, type KubernetesSettings, type PullRequestCredential, type PullRequestSettings, type RepoSource, type ServerConfig } from '../domain/server-config.js';
import { NamedSecrets } from '../domain/named-secrets.js';
import { HARNESS_NAMES, type HarnessesConfig } from '../domain/harness-config.js';
import { readNetworkPolicy } from '../executors/sandbox/network-policy.js';
import { webhookSecretProblem } from '../webhooks/webhook-secret.js';
import { readSecretValue } from './secret-source.js';

type PullRequestsSection = NonNullable<NonNullable<NonNullable<ConfigFile['environments']>[string]['repos']>[number]['pull_requests']>;

const MAX_CONFIG_BYTES = 1024 * 1024;

/** `https://github.com/acme/web.git`, `git@host:acme/web`, `/srv/git/web` → acme/web. */
function ownerAndRepo(url: string): { owner: string; repo: string } {
  const parts = url
    .replace(/^[a-z+]+:\/\/[^/]*/i, '')
    .replace(/^[^/]*@[^:]+:/, '')
    .replace(/\.git\/?$/, '')
    .split(/[/\\]/)
    .filter(Boolean);
  return { owner: parts.at(-2) ?? 'local', repo: parts.at(-1) ?? 'repo' };
}

const isUrl = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/\s]+@[^:\s]+:/.test(text);

/** Where a key path is in the file: the line of the deepest node that exists. */
function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

function fail(file: string, line: number | undefined, key: string, what: string): never {
  throw new ServerConfigError(`Configuration file ${file}${line ? `, line ${line}` : ''}: ${key ? `${key}: ` : ''}${what}`);
}

/**
 * Reads the server configuration (JSON or YAML; JSON is read as YAML, which it is). A
 * mistake throws ServerConfigError naming the file, the line, the key and what is valid.
 */
export function loadConfigFile(path: string, env: Record<string, string | undefined> = process.env): ServerConfig {
  const file = resolve(path);
  if (!existsSync(file)) throw new ServerConfigError(`Configuration file ${file}: not found.`);
  if (statSync(file).size > MAX_CONFIG_BYTES) throw new ServerConfigError(`Configuration file ${file}: larger than 1 MiB.`);
  const text = readFileSync(file, 'utf8');
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) fail(file, counter.linePos(syntax.pos[0]).line, '', `not valid YAML or JSON: ${syntax.message.split('\n')[0]}`);
  const contents = doc.contents;
  if (contents !== null && !isMap(contents)) {
    fail(file, 1, '', `must be a mapping with the keys environments, skill_directories, schedule_time_zone${isSeq(contents) ? ', not a list' : ''}.`);
  }
  const parsed = ConfigFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const where = keys.length ? [...issue.path, keys[0]!] : issue.path;
    // A record's key issue carries the key's own message (what an id may be) inside it.
    const keyIssue = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
    const what = keys.length ? `unknown key(s) ${keys.join(', ')}` : (keyIssue?.message ?? issue.message);
    fail(file, lineOf(doc, counter, where), issuePath(issue.path, ''), what);
  }
  const config = parsed.data;
  const base = dirname(file);
  const at = (path: (string | number)[]) => ({ line: lineOf(doc, counter, path), key: issuePath(path, '') });

  if (config.schedule_time_zone !== undefined && !isTimeZone(config.schedule_time_zone)) {
    const { line, key } = at(['schedule_time_zone']);
    fail(file, line, key, `"${config.schedule_time_zone}" is not an IANA time zone such as UTC or Europe/Paris.`);
  }
  const skillDirectories = (config.skill_directories ?? []).map((dir, i) => {
    const full = resolve(base, dir);
    if (!existsSync(full) || !statSync(full).isDirectory()) {
      const { line, key } = at(['skill_directories', i]);
      fail(file, line, key, `${full} is not a directory.`);
    }
    return full;
  });
  const secrets = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const [name, source] of Object.entries(config.secrets ?? {})) {
    const { line, key } = at(['secrets', name]);
    const read = readSecretValue(source, base, env);
    if (typeof read !== 'string') fail(file, line, key, read.problem);
    secrets.set(name, read);
    if (source.owner !== undefined) owners.set(name, source.owner);
  }
  /** A secret given by reference, at `path`: a declared secret's name, or a variable or file of its own. */
  const secretAt = (path: (string | number)[], source: string | Parameters<typeof readSecretValue>[0]): string => {
    const { line, key } = at(path);
    if (typeof source === 'string') {
      const named = secrets.get(source);
      if (named === undefined) fail(file, line, key, `"${source}" is not declared under secrets (declared: ${[...secrets.keys()].join(', ') || 'none'}).`);
      return named;
    }
    const read = readSecretValue(source, base, env);
    if (typeof read !== 'string') fail(file, line, key, read.problem);
    return read;
  };
  const webhooks = Object.entries(config.webhooks ?? {}).map(([name, hook]): DeclaredWebhook => {
    const { line, key } = at(['webhooks', name, 'secret']);
    const secret = secretAt(['webhooks', name, 'secret'], hook.secret);
    const problem = webhookSecretProblem(secret);
    if (problem) fail(file, line, key, problem);
    return {
      name,
      url: hook.url,
      eventTypes: hook.event_types,
      filter: hook.filter ?? {},
      enabled: hook.enabled ?? true,
      thin: hook.thin ?? false,
      description: hook.description,
      owner: hook.owner === undefined || hook.owner === 'all' ? undefined : hook.owner,
      secret,
    };
  });
  const metricsToken = config.metrics_token === undefined ? undefined : secretAt(['metrics_token'], config.metrics_token).trim();
  if (metricsToken !== undefined && metricsToken.length < 16) {
    const { line, key } = at(['metrics_token']);
    fail(file, line, key, 'the metrics token is shorter than 16 characters; make one with: openssl rand -hex 32.');
  }
  const workerTokens = Object.entries(config.workers ?? {}).map(([name, worker]): WorkerToken => {
    const { line, key } = at(['workers', name, 'token']);
    const token = secretAt(['workers', name, 'token'], worker.token);
    // A guessable token would let anyone take runs (and their prompts and secrets).
    if (token.trim().length < 16) fail(file, line, key, 'the worker token is shorter than 16 characters; make one with: openssl rand -hex 32.');
    return { name, token: token.trim(), workerHosts: [...new Set(worker.worker_hosts)] };
  });
  const network = (path: (string | number)[], value: unknown) => {
    if (value === undefined) return undefined;
    const policy = readNetworkPolicy(value);
    if (typeof policy === 'string') {
      const { line, key } = at(path);
      fail(file, line, key, policy);
    }
    return policy;
  };
  /** A repository's pull request settings, or nothing when off; a token must come from a declared secret. */
  const pullRequestSettings = (section: PullRequestsSection | undefined, path: (string | number)[]): PullRequestSettings | undefined => {
    if (section === undefined || (section.mode === 'off' && section.credential === undefined)) return undefined;
    if (section.credential === undefined) {
      const { line, key } = at(path);
      fail(file, line, key, `mode ${section.mode} needs credential: the name of a secret declared under secrets that holds a GitHub token, or a GitHub App { app_id, private_key } (or set mode: off).`);
    }
    const credential: PullRequestCredential =
      typeof section.credential === 'string'
        ? { kind: 'token', secret: section.credential }
        : { kind: 'app', appId: section.credential.app_id, privateKey: section.credential.private_key, installationId: section.credential.installation_id };
    const named = typeof section.credential === 'string' ? [...path, 'credential'] : [...path, 'credential', 'private_key'];
    for (const name of credentialSecrets(credential)) {
      if (!secrets.has(name)) {
        const { line, key } = at(named);
        fail(file, line, key, `"${name}" is not declared under secrets (declared: ${[...secrets.keys()].join(', ') || 'none'}).`);
      }
    }
    return {
      mode: section.mode,
      base: section.base,
      credential,
      apiUrl: (section.api_url ?? 'https://api.github.com').replace(/\/+$/, ''),
      author: section.author,
    };
  };
  const environments = Object.entries(config.environments ?? {}).map(([id, env]): EnvironmentConfig => {
    for (const [i, name] of (env.secrets ?? []).entries()) {
      if (!secrets.has(name)) {
        const { line, key } = at(['environments', id, 'secrets', i]);
        fail(file, line, key, `"${name}" is not declared under secrets (declared: ${[...secrets.keys()].join(', ') || 'none'}).`);
      }
    }
    const seen = new Set<string>();
    const repos = (env.repos ?? []).map((repo, i): RepoSource => {
      let url = repo.url;
      if (!isUrl(url)) {
        url = isAbsolute(url) ? url : resolve(base, url);
        if (!existsSync(url)) {
          const { line, key } = at(['environments', id, 'repos', i, 'url']);
          fail(file, line, key, `${url} does not exist (give a git URL, or the path of a local repository).`);
        }
      }
      const names = ownerAndRepo(url);
      const dir = repo.path ?? names.repo;
      if (!insideParent(dir)) {
        const { line, key } = at(['environments', id, 'repos', i, 'url']);
        fail(file, line, key, `the repository's name "${dir}" is no directory inside the working directory; give it a path.`);
      }
      if (seen.has(dir)) {
        const { line, key } = at(['environments', id, 'repos', i]);
        fail(file, line, key, `two repositories check out into "${dir}"; give one of them another path.`);
      }
      seen.add(dir);
      const pullRequests = pullRequestSettings(repo.pull_requests, ['environments', id, 'repos', i, 'pull_requests']);
      const given = pullRequests ? credentialSecrets(pullRequests.credential).filter((name) => (env.secrets ?? []).includes(name)) : [];
      if (given.length > 0) {
        // The push credential is the server's: an agent that held it could push anything anywhere it reaches.
        const { line, key } = at(['environments', id, 'repos', i, 'pull_requests', 'credential']);
        fail(file, line, key, `"${given[0]}" is also listed under environments.${id}.secrets, which gives it to the agent; a pull request credential must stay out of the agent's reach (remove it there).`);
      }
      return { url, path: dir, ref: repo.ref || undefined, ...names, ...(pullRequests ? { pullRequests } : {}) };
    });
    const knownHosts = workerTokens.flatMap((t) => t.workerHosts);
    if (env.worker_host !== undefined && env.worker_host !== 'warp' && !knownHosts.includes(env.worker_host)) {
      const { line, key } = at(['environments', id, 'worker_host']);
      fail(file, line, key, `"${env.worker_host}" is no worker id of the workers: section (known: ${[...new Set(knownHosts)].join(', ') || 'none'}).`);
    }
    return {
      id,
      name: env.name ?? id,
      description: env.description,
      repos,
      setupCommands: env.setup_commands ?? [],
      secrets: env.secrets,
      network: network(['environments', id, 'network'], env.network),
      workerHost: env.worker_host,
    };
  });
  const sandbox = {
    mode: config.sandbox,
    agentUser: config.agent_user,
    network: network(['network'], config.network),
    readOnly: (config.sandbox_read_only ?? []).map((dir) => resolve(base, dir)),
    tmpMb: config.sandbox_tmp_size_mb,
    maxProcesses: config.sandbox_max_processes,
  };
  const harnesses = harnessesConfig(config.harnesses, base);
  for (const id of Object.keys(config.budgets?.environments ?? {})) {
    if (!environments.some((env) => env.id === id)) {
      const { line, key } = at(['budgets', 'environments', id]);
      fail(file, line, key, `"${id}" is no environment of the environments: section (known: ${environments.map((env) => env.id).join(', ') || 'none'}).`);
    }
  }
  const budgets = config.budgets;
  const k8s = config.kubernetes;
  const kubernetes: KubernetesSettings | undefined = k8s && {
    namespace: k8s.namespace,
    image: k8s.image,
    imagePullPolicy: k8s.image_pull_policy,
    entrypoint: k8s.entrypoint,
    failedJobTtlSeconds: k8s.failed_job_ttl_seconds,
    resources: k8s.resources,
    nodeSelector: k8s.node_selector,
    tolerations: k8s.tolerations,
    serviceAccountName: k8s.service_account_name,
    runtimeClassName: k8s.runtime_class_name,
    envFromSecrets: k8s.env_from_secrets,
    secretEnv: k8s.secret_env,
  };
  const d = config.dispatch;
  const program = (path: string) => (path.includes('/') && !isAbsolute(path) ? resolve(base, path) : path);
  const dispatch: DispatchSettings | undefined = d && {
    command: program(d.command),
    cancelCommand: d.cancel_command === undefined ? undefined : program(d.cancel_command),
    timeoutMs: d.timeout_seconds === undefined ? undefined : d.timeout_seconds * 1000,
    silenceTimeoutMs: d.silence_timeout_seconds === undefined ? undefined : d.silence_timeout_seconds * 1000,
  };
  return { file, loadedAt: new Date().toISOString(), scheduleTimeZone: config.schedule_time_zone, skillDirectories, environments, secrets: new NamedSecrets(secrets, owners), sandbox, harnesses, webhooks, workerTokens, metricsToken, budgets, quotas: config.quotas, fairTurns: config.fair_turns, orchestration: config.orchestration, kubernetes, dispatch };
}

/** The `harnesses:` section with a command given as a relative path made absolute. */
function harnessesConfig(section: ConfigFile['harnesses'], base: string): HarnessesConfig {
  const settings: HarnessesConfig['settings'] = {};
  for (const name of HARNESS_NAMES) {
    const h = section?.[name];
    if (!h) continue;
    const command = h.command && h.command.includes('/') && !isAbsolute(h.command) ? resolve(base, h.command) : h.command;
    settings[name] = {
      command,
      args: h.args ?? [],
      env: h.env ?? [],
      models: (h.models ?? []).map((m) => ({ id: m.id, displayName: m.display_name ?? m.id, visionSupported: m.vision_supported ?? false, reasoningLevel: m.reasoning_level })),
    };
  }
  return { default: section?.default, settings };
}
