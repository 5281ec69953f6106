import type { AmbientAgentConfig, ListModelsResponse, ModelInfo, ValidationIssue } from '@agent-runs/core/contract';
import { HARNESS_NAMES, type HarnessName } from '../domain/harness-config.js';
import type { HarnessSetup } from '../executors/harness/harness-setup.js';
import { BUILT_IN_MODELS, HARNESS_PROVIDER } from './models.js';

/**
 * The models of the harnesses this server can run (`GET /agent/models`): each harness's
 * built-in list and the configuration file's additions. A model whose harness has no CLI or
 * no key carries a `disable_reason` and its description says what is missing.
 */
export class ModelCatalog {
  constructor(private readonly setup: HarnessSetup) {}

  private modelsOf(harness: HarnessName): ModelInfo[] {
    const declared = this.setup.settings(harness).models.map(
      (m): ModelInfo => ({
        id: m.id,
        display_name: m.displayName,
        provider: HARNESS_PROVIDER[harness],
        vision_supported: m.visionSupported,
        ...(m.reasoningLevel ? { reasoning_level: m.reasoningLevel } : {}),
      }),
    );
    const ids = new Set(declared.map((m) => m.id));
    return [...declared, ...BUILT_IN_MODELS[harness].filter((m) => !ids.has(m.id))];
  }

  /** The harness a model id belongs to, if any lists it. */
  harnessOfModel(modelId: string): HarnessName | undefined {
    return HARNESS_NAMES.find((h) => this.modelsOf(h).some((m) => m.id === modelId));
  }

  list(): ListModelsResponse {
    const models: ModelInfo[] = [];
    for (const harness of HARNESS_NAMES) {
      const problem = this.setup.problem(harness);
      for (const model of this.modelsOf(harness)) {
        models.push(problem ? { ...model, description: `Unavailable: ${problem.message}.`, disable_reason: 'ADMIN_DISABLED' } : model);
      }
    }
    const preferred = this.setup.defaultHarness ?? HARNESS_NAMES.find((h) => !this.setup.problem(h));
    const fallback = models.find((m) => !m.disable_reason) ?? models[0];
    const defaultModel = preferred ? this.modelsOf(preferred)[0] : fallback;
    return { default_model_id: defaultModel?.id ?? '', models };
  }

  /** A create's model that this server lists for another harness than the run's, or as disabled. */
  problem(config: AmbientAgentConfig, harness: HarnessName): ValidationIssue | undefined {
    const fromHarness = config.harness?.model_id;
    const modelId = fromHarness || config.model_id;
    if (!modelId) return undefined;
    const path = fromHarness ? 'agent_config.harness.model_id' : 'agent_config.model_id';
    const owner = this.harnessOfModel(modelId);
    if (!owner || owner === harness) return undefined;
    const problem = this.setup.problem(owner);
    if (problem) return { path, message: `the model "${modelId}" is disabled on this server: ${problem.message}.` };
    return { path, message: `the model "${modelId}" is a ${owner} model, and this run's harness is ${harness}; set agent_config.harness.type to "${owner}" or pick a ${harness} model (GET /agent/models).` };
  }
}
