import { RequestValidationError } from '../errors/request-validation-error.js';
import type { Environments } from '../resources/environments.js';
import type { Agents } from '../resources/agents.js';

interface Named {
  id: string;
  name: string;
}

/** An id as given, or the one item whose name is `text` (case-insensitive); otherwise a validation error naming `field`. */
function pick(items: Named[], text: string, field: string, kind: string, listHint: string): string {
  const wanted = text.trim();
  if (items.some((item) => item.id === wanted)) return wanted;
  const byName = items.filter((item) => item.name.toLowerCase() === wanted.toLowerCase());
  if (byName.length === 1) return byName[0]!.id;
  if (byName.length > 1) {
    throw new RequestValidationError(kind, [
      { path: field, message: `"${wanted}" is the name of ${byName.length} ${kind}s (${byName.map((i) => i.id).join(', ')}); give one of these ids` },
    ]);
  }
  const known = items.slice(0, 20).map((i) => (i.name === i.id ? i.id : `${i.name} (${i.id})`));
  throw new RequestValidationError(kind, [
    { path: field, message: `no ${kind} has the name or id "${wanted}"; ${known.length ? `known: ${known.join(', ')}` : `the server has none`} (${listHint})` },
  ]);
}

/**
 * `config.environment_id` for an environment given by name or uid; one `GET /agent/environments`.
 * `listHint` ends an unknown name's message: how the caller's user lists them (a command, a tool).
 */
export async function environmentIdFor(
  environments: Pick<Environments, 'list'>,
  nameOrId: string,
  field = 'environment',
  listHint = 'list them with GET /agent/environments',
): Promise<string> {
  const { environments: list } = await environments.list();
  return pick(
    list.map((e) => ({ id: e.uid, name: e.config.name ?? e.uid })),
    nameOrId,
    field,
    'environment',
    listHint,
  );
}

/** `agent_identity_uid` for a named agent given by name or uid; `GET /agent/identities`, every page. `listHint` as for environments. */
export async function agentUidFor(
  agents: Pick<Agents, 'list'>,
  nameOrId: string,
  field = 'agent',
  listHint = 'list them with GET /agent/identities',
): Promise<string> {
  const list: { uid: string; name: string }[] = [];
  // Every page: a name may be on any of them.
  for await (const agent of agents.list({ limit: 500 })) list.push(agent);
  return pick(
    list.map((a) => ({ id: a.uid, name: a.name })),
    nameOrId,
    field,
    'named agent',
    listHint,
  );
}

/** @deprecated Renamed {@link agentUidFor}; this alias goes in the next release. */
export const identityUidFor = agentUidFor;
