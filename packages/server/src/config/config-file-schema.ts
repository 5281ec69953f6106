import { posix } from 'node:path';
import { z } from 'zod';
import { WebhookCreateRequestSchema } from '@agent-runs/core/webhooks';
import { RunBudgetCapsSchema, WORKER_HOST_PATTERN } from '@agent-runs/core/contract';

/** `.`, `a/..` and the like name the working directory itself, or above it: a checkout there would replace it. */
export const insideParent = (path: string) => !/^\.\.?\/?$/.test(posix.normalize(path)) && !posix.normalize(path).startsWith('../');

const PR_CREDENTIAL_HINT =
  'must name a secret declared under secrets that holds a GitHub token (letters, digits and _), or be a GitHub App: { app_id: 123, private_key: SECRET_NAME, installation_id: 456 (optional) }';
const SECRET_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** A token's secret by name, or a GitHub App whose key (a secret by name) mints installation tokens. */
const PullRequestCredentialSchema = z.union(
  [
    z.string().regex(SECRET_NAME_RE),
    z.strictObject({
      app_id: z.number().int().positive(),
      private_key: z.string().regex(SECRET_NAME_RE),
      installation_id: z.number().int().positive().optional(),
    }),
  ],
  { error: PR_CREDENTIAL_HINT },
);

/**
 * Pull requests the server opens after a run that changed this repository: how (`draft`,
 * `ready`, or `off`), against which branch, with which declared secret (a token the agent
 * never sees), at which GitHub API, and in whose name the commit is.
 */
const PullRequestsSchema = z.strictObject({
  mode: z.enum(['draft', 'ready', 'off'], { error: 'must be draft, ready or off' }).default('off'),
  base: z.string().trim().min(1, 'must name a branch (default: the repository\'s default branch)').optional(),
  credential: PullRequestCredentialSchema.optional(),
  api_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL of a GitHub API (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3)' })
    .optional(),
  author: z
    .strictObject({
      name: z.string({ error: 'must be the name commits are made in' }).trim().min(1, 'must be the name commits are made in'),
      email: z.email({ error: 'must be an e-mail address' }),
    })
    .optional(),
});

/** A repository checked out into each run's working directory. */
const RepoSchema = z.strictObject({
  url: z
    .string({ error: 'must be a git URL (https://, ssh, file://) or a path to a local repository' })
    .trim()
    .min(1, 'must be a git URL (https://, ssh, file://) or a path to a local repository'),
  path: z
    .string()
    .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[\w.\-/]+$/, 'must be a relative directory inside the working directory, without ".."')
    .refine(insideParent, 'must name a directory inside the working directory, not "." (the working directory itself)')
    .optional(),
  ref: z.string().trim().min(1, 'must name a branch or tag').optional(),
  pull_requests: PullRequestsSchema.optional(),
});

/** `none`, `full`, or the hosts agents may reach (checked when the file is read). */
const NetworkSchema = z.union([z.literal('none'), z.literal('full'), z.array(z.string()).min(1, 'list at least one host, or say none')], {
  error: 'must be "none", "full", or a list of hosts',
});

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const SECRET_NAME_HINT = 'a secret name is a variable name: letters, digits and _, not starting with a digit';

/** A secret's value comes from a variable of the server's environment or a file, never from this file. */
const SecretSchema = z.union(
  [z.strictObject({ from_env: z.string().regex(SECRET_NAME, 'must name an environment variable') }), z.strictObject({ from_file: z.string().min(1, 'must be a file path') })],
  { error: 'must be { from_env: VARIABLE } or { from_file: path } (a value is never written in this file)' },
);

/** A declared secret: its source, and the one principal whose runs may name it as a harness's key (`owner`). */
const OWNER = z.string().trim().min(1, "must name a principal of this server's API keys").optional();
const DeclaredSecretSchema = z.union(
  [
    z.strictObject({ from_env: z.string().regex(SECRET_NAME, 'must name an environment variable'), owner: OWNER }),
    z.strictObject({ from_file: z.string().min(1, 'must be a file path'), owner: OWNER }),
  ],
  { error: 'must be { from_env: VARIABLE } or { from_file: path }, with owner: PRINCIPAL if that principal\'s runs may name it (a value is never written in this file)' },
);

const WORKER_HOST_HINT = 'a worker id is 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit';

const EnvironmentSchema = z.strictObject({
  name: z.string().trim().min(1, 'must be a non-empty string').optional(),
  description: z.string().optional(),
  repos: z.array(RepoSchema).max(20, 'at most 20 repositories').optional(),
  setup_commands: z.array(z.string({ error: 'each setup command must be a string' }).min(1)).max(50, 'at most 50 commands').optional(),
  secrets: z.array(z.string().regex(SECRET_NAME, SECRET_NAME_HINT)).max(100).optional(),
  network: NetworkSchema.optional(),
  /** The self-hosted workers its runs go to, unless a run or its named agent names others. */
  worker_host: z.string().regex(WORKER_HOST_PATTERN, WORKER_HOST_HINT).optional(),
});

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One harness CLI: where it is, arguments put first, the server variables it gets, models it adds. */
const HarnessSchema = z.strictObject({
  command: z.string().trim().min(1, 'must be the CLI\'s path or a command name on PATH').optional(),
  args: z.array(z.string()).max(50, 'at most 50 arguments').optional(),
  env: z.array(z.string().regex(ENV_NAME, 'must be an environment variable name (letters, digits, _)')).max(100).optional(),
  models: z
    .array(
      z.strictObject({
        id: z.string().trim().min(1, 'must be the model id the harness takes'),
        display_name: z.string().min(1).optional(),
        vision_supported: z.boolean().optional(),
        reasoning_level: z.string().min(1).optional(),
      }),
    )
    .max(100)
    .optional(),
});

/** The `harnesses:` section: the default harness and each harness's settings. */
const HarnessesSchema = z.strictObject({
  default: z.enum(['claude', 'codex', 'gemini'], { error: 'must be claude, codex or gemini' }).optional(),
  claude: HarnessSchema.optional(),
  codex: HarnessSchema.optional(),
  gemini: HarnessSchema.optional(),
});

/**
 * A webhook the operator declares: the API's subscription fields, whose runs it gets (a
 * principal, or `all`), and its signing secret by reference (a declared secret's name, a
 * variable or a file), never its value.
 */
const WEBHOOK_SECRET_HINT =
  'must name a secret declared under secrets (letters, digits and _), or be { from_env: VARIABLE } or { from_file: path }; the secret itself is never written in this file';
const WebhookSchema = WebhookCreateRequestSchema.extend({
  owner: z.string().trim().min(1, 'must name a principal of this server\'s API keys, or be "all"').optional(),
  secret: z.union([z.string().regex(SECRET_NAME, WEBHOOK_SECRET_HINT), SecretSchema], { error: WEBHOOK_SECRET_HINT }),
});

/**
 * A worker token: what self-hosted workers authenticate with (never an API key), by reference
 * as a webhook's secret is, and the worker ids (`worker_host`) workers holding it may serve.
 */
/** The token `GET /metrics` takes from elsewhere than the server's machine, by reference. */
const METRICS_TOKEN_HINT =
  'must name a secret declared under secrets, or be { from_env: VARIABLE } or { from_file: path }; the metrics token itself is never written in this file';
const WORKER_TOKEN_HINT =
  'must name a secret declared under secrets (letters, digits and _), or be { from_env: VARIABLE } or { from_file: path }; the token itself is never written in this file';
const WorkerTokenSchema = z.strictObject({
  token: z.union([z.string().regex(SECRET_NAME, WORKER_TOKEN_HINT), SecretSchema], { error: WORKER_TOKEN_HINT }),
  worker_hosts: z
    .array(z.string().regex(WORKER_HOST_PATTERN, WORKER_HOST_HINT))
    .min(1, 'list the worker ids (worker_host) this token may serve, 1 to 100')
    .max(100, 'at most 100 worker ids'),
});

/** A whole number from `min` to `max`, said so in every error. */
function wholeNumber(min: number, max: number, unit = '') {
  const hint = `must be a whole number from ${min} to ${max}${unit}`;
  return z.number({ error: hint }).int(hint).min(min, hint).max(max, hint);
}

/** A sum of dollars from `min` to `max`, said so in every error. */
function dollars(min: number, max: number) {
  const hint = `must be a number of dollars from ${min} to ${max}`;
  return z.number({ error: hint }).min(min, hint).max(max, hint);
}

/** A default budget and the most a run may name, for everyone, a principal or an environment. */
const BudgetRuleSchema = z.strictObject({ default: RunBudgetCapsSchema.optional(), max: RunBudgetCapsSchema.optional() });

/** The `budgets:` section: the rule for every run, and one per principal and per environment. */
const BudgetsSchema = BudgetRuleSchema.extend({
  principals: z.record(z.string().trim().min(1, "must name a principal of this server's API keys"), BudgetRuleSchema).optional(),
  environments: z.record(z.string().min(1, 'must name an environment of the environments: section'), BudgetRuleSchema).optional(),
});

/** A principal's quotas: counts are whole numbers, spend a sum of dollars; an absent field is no limit. */
const QuotaRuleSchema = z.strictObject({
  runs_in_flight: wholeNumber(0, 1_000_000).optional(),
  runs_queued: wholeNumber(0, 1_000_000).optional(),
  creates_per_minute: wholeNumber(0, 1_000_000).optional(),
  spend_per_day_usd: dollars(0, 1_000_000).optional(),
});

/** The `quotas:` section: the rule for every principal, and a principal's own rule instead of it. */
const QuotasSchema = z.strictObject({
  default: QuotaRuleSchema.optional(),
  principals: z.record(z.string().trim().min(1, "must name a principal of this server's API keys"), QuotaRuleSchema).optional(),
});

/** The `fair_turns:` section: each named principal's weight, whole numbers (turns stay whole numbers in the database). */
const FairTurnsSchema = z.strictObject({
  weights: z.record(z.string().trim().min(1, "must name a principal of this server's API keys"), wholeNumber(1, 1000, ' (runs started per turn)')).optional(),
});

/** The `orchestration:` section: limits on the trees of runs that start runs. */
const OrchestrationSchema = z.strictObject({
  max_depth: wholeNumber(0, 100).optional(),
  max_children_per_run: wholeNumber(0, 100_000).optional(),
});

const K8S_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const K8S_NAME_HINT = 'must be a Kubernetes name: lowercase letters, digits and "-", starting and ending with a letter or digit';

/**
 * The `kubernetes:` section, read by a worker started with `--backend kubernetes`: the Jobs'
 * namespace and what their pods' spec takes as it is (image, resources, node selector,
 * tolerations, service account, runtime class), so operators write Kubernetes' own shapes.
 */
const KubernetesSchema = z.strictObject({
  namespace: z.string().max(63).regex(K8S_NAME, K8S_NAME_HINT).optional(),
  image: z.string({ error: "must name the image the Jobs' pods run (it holds agent-runs-job-entrypoint and the agent)" }).trim().min(1, "must name the image the Jobs' pods run"),
  image_pull_policy: z.enum(['Always', 'IfNotPresent', 'Never'], { error: 'must be Always, IfNotPresent or Never' }).optional(),
  /** How the image starts our entrypoint; default `agent-runs-job-entrypoint` on its PATH. */
  entrypoint: z.array(z.string().min(1)).min(1, 'give the command as a list, e.g. [agent-runs-job-entrypoint]').optional(),
  failed_job_ttl_seconds: wholeNumber(0, 30 * 24 * 3600, ' (seconds)').optional(),
  resources: z.looseObject({ limits: z.record(z.string(), z.union([z.string(), z.number()])).optional(), requests: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).optional(),
  node_selector: z.record(z.string(), z.string()).optional(),
  tolerations: z.array(z.looseObject({})).optional(),
  service_account_name: z.string().max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, K8S_NAME_HINT).optional(),
  runtime_class_name: z.string().max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, K8S_NAME_HINT).optional(),
  /** Secrets of the namespace whose every key becomes a variable of the pod (`envFrom`): a model provider's key, say. */
  env_from_secrets: z.array(z.string().max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, K8S_NAME_HINT)).optional(),
  /** Variables of the pod taken from one key of a Secret each (`valueFrom.secretKeyRef`): the value never enters the Job's spec. */
  secret_env: z
    .record(
      z
        .string()
        .regex(ENV_NAME, 'must be a variable name (letters, digits and _, not starting with a digit)')
        .refine((name) => !name.startsWith('AGENT_RUNS_'), "AGENT_RUNS_* variables are the run's own and the entrypoint's; name another"),
      z.strictObject({
        secret: z.string().max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, K8S_NAME_HINT),
        key: z.string().max(253).regex(/^[-._a-zA-Z0-9]+$/, "must be a key of the Secret's data (letters, digits, '-', '_' and '.')"),
      }, { error: 'must be { secret: <the Secret\'s name>, key: <a key of its data> }' }),
    )
    .optional(),
});

/**
 * The `dispatch:` section, read by a worker started with `--backend command` (its flags win):
 * the operator's programs that hand a run to their scheduler and stop it there.
 */
const DispatchSchema = z.strictObject({
  command: z.string().trim().min(1, 'must be the path of the dispatch program (the run as JSON on its stdin)'),
  cancel_command: z.string().trim().min(1, 'must be the path of the cancel program (the run id as its argument)').optional(),
  timeout_seconds: wholeNumber(1, 3600, ' (seconds)').optional(),
  silence_timeout_seconds: wholeNumber(1, 7 * 24 * 3600, ' (seconds)').optional(),
});

/**
 * The server's configuration file (JSON or YAML). Strict: a misspelt key is named rather
 * than ignored. Relative paths are relative to the file.
 */
export const ConfigFileSchema = z.strictObject({
  schedule_time_zone: z.string().min(1).optional(),
  skill_directories: z.array(z.string().min(1, 'must be a directory path')).optional(),
  environments: z
    .record(
      z.string().regex(/^(?!\.\.?$)[\w.-]{1,100}$/, 'an environment id is 1-100 letters, digits, ".", "_" or "-", and not "." or ".."'),
      EnvironmentSchema,
    )
    .optional(),
  secrets: z.record(z.string().regex(SECRET_NAME, SECRET_NAME_HINT), DeclaredSecretSchema).optional(),
  sandbox: z.enum(['auto', 'on', 'off'], { error: 'must be auto, on or off' }).optional(),
  agent_user: z.string().trim().min(1, 'must name a user (name or uid[:gid])').optional(),
  network: NetworkSchema.optional(),
  sandbox_read_only: z.array(z.string().min(1, 'must be a path')).optional(),
  sandbox_tmp_size_mb: wholeNumber(16, 1_048_576, ' (MiB)').optional(),
  sandbox_max_processes: wholeNumber(16, 1_000_000).optional(),
  harnesses: HarnessesSchema.optional(),
  webhooks: z
    .record(z.string().regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'a webhook name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'), WebhookSchema)
    .optional(),
  metrics_token: z.union([z.string().regex(SECRET_NAME, METRICS_TOKEN_HINT), SecretSchema], { error: METRICS_TOKEN_HINT }).optional(),
  budgets: BudgetsSchema.optional(),
  quotas: QuotasSchema.optional(),
  fair_turns: FairTurnsSchema.optional(),
  orchestration: OrchestrationSchema.optional(),
  kubernetes: KubernetesSchema.optional(),
  dispatch: DispatchSchema.optional(),
  workers: z
    .record(z.string().regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'a worker token name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'), WorkerTokenSchema)
    .optional(),
});

export type ConfigFile = z.output<typeof ConfigFileSchema>;
export type WebhookDefinition = z.output<typeof WebhookSchema>;
export type EnvironmentDefinition = z.output<typeof EnvironmentSchema>;
