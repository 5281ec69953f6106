/** How an attempt ended, as far as sharing the slots goes. */
export type AttemptEnd = 'answered' | 'timed out' | 'failed';

/** A subscription as the shares see it: whose it is (`null`: one the operator declared). */
export interface SharedSubscription {
  id: string;
  ownerUid: string | null;
}

/**
 * How a server's attempt slots are shared, so one principal's slow or dead receivers cannot
 * hold every slot while another's deliveries wait:
 *
 * - a principal holds at most all but an eighth of the slots (56 of 64: the rest stay for
 *   other principals);
 * - a subscription holds at most its principal's cap less a sixteenth of the slots (52 of
 *   64: the rest stay for the principal's other subscriptions), and one while backed off: from
 *   an attempt that got no answer in time until one that gets an answer;
 * - free slots are dealt one at a time to the principal with the fewest attempts in flight,
 *   each taking its oldest due delivery its caps allow.
 *
 * The dispatcher asks `full` which subscriptions a claim should leave out, lets the store's
 * claim `choose` among the due deliveries, and reports each attempt's start and end.
 */
export class SlotShares {
  private readonly perPrincipal: number;
  private readonly perSubscription: number;
  private readonly bySubscription = new Map<string, number>();
  private readonly byPrincipal = new Map<string, number>();
  /** Whose each subscription with attempts in flight is, as when they started. */
  private readonly principalOfStarted = new Map<string, string>();
  private readonly backedOff = new Set<string>();
  private principals = new Map<string, string>();

  constructor(slots: number) {
    this.perPrincipal = Math.max(1, slots - Math.ceil(slots / 8));
    this.perSubscription = Math.max(1, this.perPrincipal - Math.ceil(slots / 16));
  }

  /** The subscriptions as last read: whose each is. A backed-off one no longer listed is forgotten. */
  subscriptions(list: readonly SharedSubscription[]): void {
    this.principals = new Map(list.map((s) => [s.id, s.ownerUid === null ? 'operator' : `uid:${s.ownerUid}`]));
    for (const id of this.backedOff) if (!this.principals.has(id)) this.backedOff.delete(id);
  }

  /** Subscriptions with no room left, at their own cap or their principal's: a claim leaves their deliveries out. */
  full(): string[] {
    const full: string[] = [];
    for (const [id, principal] of this.principals) {
      if ((this.bySubscription.get(id) ?? 0) >= this.capOf(id) || (this.byPrincipal.get(principal) ?? 0) >= this.perPrincipal) full.push(id);
    }
    return full;
  }

  /** Which of the due deliveries (oldest first) go into `free` slots, in the order given. */
  choose<T extends { subscriptionId: string }>(due: readonly T[], free: number): T[] {
    const bySubscription = new Map(this.bySubscription);
    const byPrincipal = new Map(this.byPrincipal);
    // Each principal's due deliveries, oldest first.
    const queues = new Map<string, T[]>();
    for (const delivery of due) {
      const principal = this.principalOf(delivery.subscriptionId);
      const queue = queues.get(principal);
      if (queue) queue.push(delivery);
      else queues.set(principal, [delivery]);
    }
    const chosen = new Set<T>();
    while (chosen.size < free && queues.size) {
      // The principal with the fewest in flight; of equals, the one whose delivery waited longest (first seen).
      let principal: string | undefined;
      for (const candidate of queues.keys()) {
        if (principal === undefined || (byPrincipal.get(candidate) ?? 0) < (byPrincipal.get(principal) ?? 0)) principal = candidate;
      }
      const queue = queues.get(principal!)!;
      const index = (byPrincipal.get(principal!) ?? 0) < this.perPrincipal ? queue.findIndex((d) => (bySubscription.get(d.subscriptionId) ?? 0) < this.capOf(d.subscriptionId)) : -1;
      if (index < 0) {
        queues.delete(principal!);
        continue;
      }
      const [delivery] = queue.splice(index, 1) as [T];
      if (queue.length === 0) queues.delete(principal!);
      chosen.add(delivery);
      bySubscription.set(delivery.subscriptionId, (bySubscription.get(delivery.subscriptionId) ?? 0) + 1);
      byPrincipal.set(principal!, (byPrincipal.get(principal!) ?? 0) + 1);
    }
    return due.filter((d) => chosen.has(d));
  }

  /** An attempt to the subscription started. */
  started(subscriptionId: string): void {
    const principal = this.principalOfStarted.get(subscriptionId) ?? this.principalOf(subscriptionId);
    this.principalOfStarted.set(subscriptionId, principal);
    this.bySubscription.set(subscriptionId, (this.bySubscription.get(subscriptionId) ?? 0) + 1);
    this.byPrincipal.set(principal, (this.byPrincipal.get(principal) ?? 0) + 1);
  }

  /** An attempt to the subscription ended: no answer in time backs it off, an answer ends that. */
  ended(subscriptionId: string, end: AttemptEnd): void {
    if (end === 'timed out') this.backedOff.add(subscriptionId);
    else if (end === 'answered') this.backedOff.delete(subscriptionId);
    const principal = this.principalOfStarted.get(subscriptionId);
    const left = (this.bySubscription.get(subscriptionId) ?? 1) - 1;
    if (left > 0) this.bySubscription.set(subscriptionId, left);
    else {
      this.bySubscription.delete(subscriptionId);
      this.principalOfStarted.delete(subscriptionId);
    }
    if (principal === undefined) return;
    const principalLeft = (this.byPrincipal.get(principal) ?? 1) - 1;
    if (principalLeft > 0) this.byPrincipal.set(principal, principalLeft);
    else this.byPrincipal.delete(principal);
  }

  /** A subscription not listed yet (made since the last read) is a principal of its own. */
  private principalOf(subscriptionId: string): string {
    return this.principals.get(subscriptionId) ?? `subscription:${subscriptionId}`;
  }

  private capOf(subscriptionId: string): number {
    return this.backedOff.has(subscriptionId) ? 1 : this.perSubscription;
  }
}
