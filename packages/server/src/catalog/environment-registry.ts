import type { CloudEnvironment } from '@agent-runs/core/contract';
import type { EnvironmentConfig, ServerConfig } from '../domain/server-config.js';
import type { InvalidInputError } from '../domain/domain-errors.js';
import { invalidField } from '../domain/invalid-request-input.js';
import type { LastRun } from '../store/catalog/catalog-activity.js';

/** The environments the configuration file declares, by id. */
export class EnvironmentRegistry {
  private readonly byId: Map<string, EnvironmentConfig>;

  constructor(private readonly config: ServerConfig) {
    this.byId = new Map(config.environments.map((env) => [env.id, env]));
  }

  get(id: string): EnvironmentConfig | undefined {
    return this.byId.get(id);
  }

  list(): EnvironmentConfig[] {
    return [...this.byId.values()];
  }

  /** `environment_id: "x" names no environment; declared: a, b` for a 400. */
  /** A run asked for a pull request where its environment has no repository that takes one. */
  noPullRequests(field: string, id: string | undefined): InvalidInputError {
    const allowing = [...this.byId.values()].filter((env) => env.repos.some((repo) => repo.pullRequests)).map((env) => env.id);
    return invalidField(
      field,
      `${id === undefined ? 'a run with no environment_id' : `environment "${id}"`} has no repository with pull_requests settings, so no pull request can be opened; ${
        allowing.length ? `environments that allow one: ${allowing.join(', ')}` : 'declare pull_requests (credential, mode) on a repository of an environment in the configuration file'
      }, or leave pull_request out.`,
    );
  }

  unknownEnvironment(field: string, id: string): InvalidInputError {
    const ids = [...this.byId.keys()];
    return invalidField(
      field,
      `"${id}" names no environment of this server; ${
        ids.length ? `declared: ${ids.join(', ')}` : 'none is declared (add environments to the configuration file given with --config)'
      }.`,
    );
  }

  /** The contract's view: a repository appears as `github_repos` owner/repo, the setup commands as given. */
  toCloudEnvironment(env: EnvironmentConfig, last: LastRun | undefined): CloudEnvironment {
    return {
      uid: env.id,
      config: {
        name: env.name,
        description: env.description,
        github_repos: env.repos.map((r) => ({ owner: r.owner, repo: r.repo })),
        setup_commands: env.setupCommands,
      },
      last_updated: this.config.loadedAt,
      setup_failed: false,
      last_task_run_timestamp: last?.createdAt ?? null,
      ...(last
        ? {
            last_task_created: {
              id: last.id,
              title: last.title,
              state: last.state,
              created_at: last.createdAt,
              updated_at: last.updatedAt,
              started_at: last.startedAt,
            },
          }
        : {}),
      scope: { type: 'User' },
    };
  }
}
