import type { ModelCatalog } from '../catalog/model-catalog.js';
import { invalidField } from '../domain/invalid-request-input.js';
import { HARNESS_NAMES } from '../domain/harness-config.js';

/** A harness or a model the start form offers; `unavailable` says why it cannot be picked now. */
export interface HarnessChoice {
  name: string;
  unavailable?: string;
}

export interface ModelChoice {
  id: string;
  label: string;
  harness: string;
  unavailable?: string;
}

export interface ModelChoices {
  harnesses: HarnessChoice[];
  models: ModelChoice[];
}

/** The catalog's reason, without the "Unavailable:" its description starts with. */
const reasonOf = (description: string | undefined) => (description ?? 'unavailable on this server').replace(/^Unavailable:\s*/i, '').replace(/\.$/, '');

/** The harnesses and models of `GET /agent/models`, by harness; a harness whose models are all disabled is disabled, with their reason. */
export function modelChoicesOf(catalog: ModelCatalog): ModelChoices {
  const models: ModelChoice[] = catalog.list().models.map((m) => ({
    id: m.id,
    label: m.display_name || m.id,
    harness: catalog.harnessOfModel(m.id) ?? 'other',
    ...(m.disable_reason ? { unavailable: reasonOf(m.description) } : {}),
  }));
  // `oz`, the contract's own harness, is the server's default executor here: always offered.
  const harnesses = [{ name: 'oz' }, ...HARNESS_NAMES.map((name): HarnessChoice => {
    const own = models.filter((m) => m.harness === name);
    const blocked = own.length > 0 && own.every((m) => m.unavailable) ? own[0]!.unavailable : undefined;
    return blocked ? { name, unavailable: blocked } : { name };
  })];
  return { harnesses, models };
}

/**
 * The harness and model a start form asks for, checked against the catalog: a disabled one
 * is refused naming its field; a model picked without a harness runs on the model's own.
 */
export function pickedModel(choices: ModelChoices, form: URLSearchParams): { harness?: string; model?: string } {
  const harness = form.get('harness')?.trim() || undefined;
  const model = form.get('model_id')?.trim() || undefined;
  const blockedHarness = choices.harnesses.find((h) => h.name === harness && h.unavailable);
  if (blockedHarness) throw invalidField('harness', `"${harness}" cannot run on this server now: ${blockedHarness.unavailable}.`);
  const listed = choices.models.find((m) => m.id === model);
  if (listed?.unavailable) throw invalidField('model_id', `"${model}" cannot be used on this server now: ${listed.unavailable}.`);
  const own = listed && listed.harness !== 'other' ? listed.harness : undefined;
  return { ...(harness || own ? { harness: (harness ?? own)! } : {}), ...(model ? { model } : {}) };
}
