import type { NamedAgentRecord } from '../store/named-agents/named-agent-store.js';

/** Whether `principal` may see and use a named agent: its own, or every one when runs are shared. */
export function namedAgentVisible(identity: NamedAgentRecord, principal: string | undefined, shared: boolean): boolean {
  return shared || identity.creatorUid === (principal ?? '');
}
