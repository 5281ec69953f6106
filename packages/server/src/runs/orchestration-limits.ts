import { ORCHESTRATION_DEFAULTS, type OrchestrationPolicy } from '../domain/server-config.js';
import { UnprocessableError } from '../domain/domain-errors.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';

/**
 * How deep and wide a tree of runs may grow (the `orchestration:` section), held at every
 * create that names a parent, whoever sends it: an agent fanning out with its run token
 * and a person building a tree by hand meet the same limits. The depth is checked here; the
 * children are counted by the store as it inserts (`childLimit`), so creates racing under one
 * parent cannot pass the count together.
 */
export class OrchestrationLimits {
  readonly maxDepth: number;
  readonly maxChildren: number;

  constructor(
    private readonly store: RunStore,
    policy: OrchestrationPolicy | undefined,
  ) {
    this.maxDepth = policy?.max_depth ?? ORCHESTRATION_DEFAULTS.max_depth;
    this.maxChildren = policy?.max_children_per_run ?? ORCHESTRATION_DEFAULTS.max_children_per_run;
  }

  /** Refuses (422, naming the limit) a new child of `parent` that would be too deep. */
  async checkChild(parent: RunRecord): Promise<void> {
    const depth = await this.depthOfChild(parent);
    if (depth > this.maxDepth) {
      throw new UnprocessableError([
        {
          path: 'parent_run_id',
          message: `a child of run ${parent.id} would be ${depth} runs deep; this server allows ${this.maxDepth} (orchestration.max_depth)`,
        },
      ]);
    }
  }

  /** The refusal (422, naming the limit) of a child the store found one too many (`parent_full`). */
  tooManyChildren(parentRunId: string): UnprocessableError {
    return new UnprocessableError([
      {
        path: 'parent_run_id',
        message: `run ${parentRunId} already has ${this.maxChildren} children, the most this server allows (orchestration.max_children_per_run)`,
      },
    ]);
  }

  /** How many ancestors a child of `parent` would have, counted no further than one past the limit. */
  private async depthOfChild(parent: RunRecord): Promise<number> {
    let depth = 1;
    let run: RunRecord | undefined = parent;
    while (run?.parentRunId !== undefined && run.parentRunId !== null && depth <= this.maxDepth) {
      run = await this.store.get(run.parentRunId);
      if (run) depth++;
    }
    return depth;
  }
}
