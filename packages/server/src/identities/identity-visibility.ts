import type { IdentityRecord } from '../store/identity-store.js';

/** Whether `principal` may see and use a named agent: its own, or every one when runs are shared. */
export function identityVisible(identity: IdentityRecord, principal: string | undefined, shared: boolean): boolean {
  return shared || identity.creatorUid === (principal ?? '');
}
