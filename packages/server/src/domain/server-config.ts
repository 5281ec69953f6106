import type { HarnessesConfig } from './harness-config.js';
import { NamedSecrets } from './named-secrets.js';

/** The server's configuration as services and executors read it (the file, checked, paths absolute). */

export interface RepoSource {
  /** What `git clone` is given: a URL, or an absolute local path. */
  url: string;
  /** Directory inside the working directory. */
  path: string;
  ref?: string | undefined;
  /** For the contract's `github_repos`: owner and name read from the URL. */
  owner: string;
  repo: string;
  /** Pull requests the server opens after a run that changed it; absent when off. */
  pullRequests?: PullRequestSettings | undefined;
}

/**
 * A GitHub credential by the names of declared secrets: a token, or a GitHub App whose private
 * key mints an installation token for the one repository (found by the App when not given).
 */
export type PullRequestCredential = { kind: 'token'; secret: string } | { kind: 'app'; appId: number; privateKey: string; installationId?: number | undefined };

/** The secret names a credential reads. */
export const credentialSecrets = (credential: PullRequestCredential): string[] => (credential.kind === 'token' ? [credential.secret] : [credential.privateKey]);

/** An environment repository's `pull_requests:` settings, checked. `off` with a credential: only runs that ask for one get a pull request. */
export interface PullRequestSettings {
  mode: 'draft' | 'ready' | 'off';
  /** The branch the pull request targets; absent: the repository's default branch. */
  base?: string | undefined;
  /** What pushes and opens the pull request (resolved at push time, never given to the agent). */
  credential: PullRequestCredential;
  /** GitHub's REST API root (GitHub Enterprise: https://HOST/api/v3). */
  apiUrl: string;
  /** Who commits; absent: the server's default identity. */
  author?: { name: string; email: string } | undefined;
}

export interface EnvironmentConfig {
  id: string;
  name: string;
  description: string | undefined;
  repos: RepoSource[];
  setupCommands: string[];
  /** Names of the configuration's secrets its runs get as variables (name = value). */
  secrets?: string[] | undefined;
  /** Its runs' network policy, instead of the server's. */
  network?: NetworkPolicy | undefined;
  /** The self-hosted workers its runs go to (`worker_host`), unless a run or its named agent names others. */
  workerHost?: string | undefined;
}

/**
 * What an agent may reach: nothing, everything the server can, or only the named hosts.
 * `endpoints` (never read from a configuration file) are the exact `host:port` of a
 * harness's model endpoint as the operator configured it: reached whatever they resolve
 * to, loopback included, where a listed host must not resolve to an internal address.
 */
export type NetworkPolicy = { kind: 'none' } | { kind: 'full' } | { kind: 'allow'; hosts: string[]; endpoints?: string[] | undefined };

/** The configuration file's sandbox settings (flags win over them). */
export interface SandboxSettings {
  mode?: 'auto' | 'on' | 'off' | undefined;
  agentUser?: string | undefined;
  network?: NetworkPolicy | undefined;
  /** Paths every sandbox sees read-only (a harness, tools). */
  readOnly?: string[] | undefined;
  /** The size of each sandbox's private /tmp, in MiB. */
  tmpMb?: number | undefined;
  /** The processes (threads included) each agent sandbox may hold. */
  maxProcesses?: number | undefined;
}

/** The configuration file, read and checked, with paths made absolute. */
export interface ServerConfig {
  file: string | undefined;
  /** When the file was read (the environments' `last_updated`). */
  loadedAt: string;
  scheduleTimeZone: string | undefined;
  skillDirectories: string[];
  environments: EnvironmentConfig[];
  /** Secrets declared by name in the configuration file, values already read. */
  secrets: NamedSecrets;
  sandbox?: SandboxSettings | undefined;
  /** The `harnesses:` section: the default harness, and each harness's CLI, variables and models. */
  harnesses: HarnessesConfig;
  /** The `webhooks:` section, kept in step with the store at start-up. */
  webhooks?: DeclaredWebhook[] | undefined;
  /** The token `GET /metrics` takes from elsewhere than this machine (`metrics_token`). */
  metricsToken?: string | undefined;
  /** The `workers:` section: the tokens self-hosted workers connect with. */
  workerTokens?: WorkerToken[] | undefined;
  /** The `budgets:` section: runs' default caps and the most they may name. */
  budgets?: BudgetPolicy | undefined;
  /** The `quotas:` section: how many runs a principal may hold and start. */
  quotas?: QuotaPolicy | undefined;
  /** The `fair_turns:` section: how the queue shares its slots between principals. */
  fairTurns?: FairTurnsPolicy | undefined;
  /** The `orchestration:` section: how deep and wide the trees runs start may grow. */
  orchestration?: OrchestrationPolicy | undefined;
  /** The `kubernetes:` section: a worker's Jobs (`--backend kubernetes`). */
  kubernetes?: KubernetesSettings | undefined;
  /** The `dispatch:` section: a worker's dispatch and cancel programs (`--backend command`). */
  dispatch?: DispatchSettings | undefined;
}

/** The operator's programs a `--backend command` worker hands runs to; paths absolute or as given. */
export interface DispatchSettings {
  command: string;
  cancelCommand?: string | undefined;
  timeoutMs?: number | undefined;
  silenceTimeoutMs?: number | undefined;
}

/** Where a worker's Jobs go and what their pods take as it is from the configuration file. */
export interface KubernetesSettings {
  /** Default: the worker pod's own namespace, else the kubeconfig context's, else `default`. */
  namespace?: string | undefined;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never' | undefined;
  /** The command that starts our entrypoint in the image. */
  entrypoint?: string[] | undefined;
  /** How long a failed Job is kept for a look after it (ttlSecondsAfterFinished); succeeded ones are deleted. */
  failedJobTtlSeconds?: number | undefined;
  resources?: Record<string, unknown> | undefined;
  nodeSelector?: Record<string, string> | undefined;
  tolerations?: Record<string, unknown>[] | undefined;
  serviceAccountName?: string | undefined;
  runtimeClassName?: string | undefined;
  /** Secrets whose keys all become the pod's variables (`envFrom`). */
  envFromSecrets?: string[] | undefined;
  /** The pod's variables from one key of a Secret each (`valueFrom.secretKeyRef`). */
  secretEnv?: Record<string, { secret: string; key: string }> | undefined;
}

/** The `orchestration:` section; an absent field takes its default (ORCHESTRATION_DEFAULTS). */
export interface OrchestrationPolicy {
  /** Most ancestors a run may have (a run with no parent has none). */
  max_depth?: number | undefined;
  /** Most runs one run may have as its children, ever. */
  max_children_per_run?: number | undefined;
}

/** What `orchestration:` holds when the file leaves a field out. */
export const ORCHESTRATION_DEFAULTS = { max_depth: 3, max_children_per_run: 10 } as const;

/** One principal's quotas; an absent field is no limit. */
export interface QuotaRule {
  /** Runs INPROGRESS at once. */
  runs_in_flight?: number | undefined;
  /** Runs QUEUED at once. */
  runs_queued?: number | undefined;
  /** Runs created (follow-ups included) in any 60 seconds. */
  creates_per_minute?: number | undefined;
  /** Dollars the principal's runs may spend per UTC day, summed from their usage as it is reported. */
  spend_per_day_usd?: number | undefined;
}

/** The `fair_turns:` section: a principal of weight n is started n times for another's once (not named: weight 1). */
export interface FairTurnsPolicy {
  weights?: Record<string, number> | undefined;
}

/** The `quotas:` section: the rule for every principal, and one per principal that replaces it. */
export interface QuotaPolicy {
  default?: QuotaRule | undefined;
  principals?: Record<string, QuotaRule> | undefined;
}

/** Caps on a run's cost, tokens and wall time (core's `RunBudget`, restated here so the ground floor imports no contract). */
export interface BudgetCaps {
  max_cost_usd?: number | undefined;
  max_tokens?: number | undefined;
  max_duration_seconds?: number | undefined;
}

/** A default budget and the most a run may name. */
export interface BudgetRule {
  default?: BudgetCaps | undefined;
  max?: BudgetCaps | undefined;
}

/** The `budgets:` section: the rule for every run, and one per principal and per environment id. */
export interface BudgetPolicy extends BudgetRule {
  principals?: Record<string, BudgetRule> | undefined;
  environments?: Record<string, BudgetRule> | undefined;
}

/** A worker token of the `workers:` section, its value read. */
export interface WorkerToken {
  /** Its key in the file: how logs and the connected list name it. */
  name: string;
  token: string;
  /** The worker ids a worker holding it may serve. */
  workerHosts: string[];
}

export const EMPTY_CONFIG: ServerConfig = {
  file: undefined,
  loadedAt: new Date(0).toISOString(),
  scheduleTimeZone: undefined,
  skillDirectories: [],
  environments: [],
  secrets: new NamedSecrets(),
  harnesses: { settings: {} },
};

/** A webhook declared in the configuration file's `webhooks:` section, its secret read. */
export interface DeclaredWebhook {
  /** Its key in the file: the subscription's id is made from it, so a restart finds it again. */
  name: string;
  url: string;
  eventTypes: string[] | undefined;
  filter: { states?: string[] | undefined; environment_id?: string | undefined; schedule_id?: string | undefined };
  enabled: boolean;
  thin: boolean;
  description: string | undefined;
  /** The principal whose runs it gets; undefined for every run. */
  owner: string | undefined;
  /** `whsec_…`, from a declared secret, a variable or a file. */
  secret: string;
}
