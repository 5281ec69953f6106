import { ServerConfigError } from '../domain/server-config-error.js';
import type { ServerConfig } from '../domain/server-config.js';
import type { RunPolicy } from '../executors/run-policy.js';
import type { AgentSandbox } from '../executors/sandbox/agent-sandbox.js';
import { chooseSandbox } from '../executors/sandbox/choose-sandbox.js';
import { readNetworkPolicy } from '../executors/sandbox/network-policy.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { ServerOptions } from './server-options.js';

/** How agents start on this server: the flags, else the configuration file, else auto with full network. */
export function sandboxFor(options: Pick<ServerOptions, 'sandbox' | 'agentUser' | 'agentUidRange' | 'network'>, config: ServerConfig): AgentSandbox {
  const file = config.sandbox ?? {};
  let network = file.network ?? { kind: 'full' as const };
  if (options.network !== undefined) {
    const policy = readNetworkPolicy(options.network);
    if (typeof policy === 'string') throw new ServerConfigError(`network (--network) ${policy}.`);
    network = policy;
  }
  return chooseSandbox({ mode: options.sandbox ?? file.mode ?? 'auto', agentUser: options.agentUser ?? file.agentUser, agentUidRange: options.agentUidRange, network, readOnly: file.readOnly, tmpMb: file.tmpMb, maxProcesses: file.maxProcesses });
}

/** What a run's environment adds to its agent: its named secrets as variables, its network policy. */
export function runPolicyFor(config: ServerConfig): (run: RunRecord) => RunPolicy {
  const byId = new Map(config.environments.map((env) => [env.id, env]));
  return (run) => {
    const env = run.agentConfig.environment_id ? byId.get(run.agentConfig.environment_id) : undefined;
    const vars: Record<string, string> = {};
    for (const name of env?.secrets ?? []) {
      const value = config.secrets.value(name);
      if (value !== undefined) vars[name] = value;
    }
    return { env: vars, network: env?.network };
  };
}
