import type { NewWebhookDelivery, WebhookDeliveryRecord } from '../store/webhooks/webhook-store.js';

/** Deliveries fanned out here and left unclaimed that are kept by id; past it, every answer claims. */
const MAX_TRACKED = 10_000;

/**
 * What a server knows may wait to be claimed, so an attempt's end claims only then, not
 * after every answer: a later delivery of the run just answered (`hasNext`), a delivery its
 * own fan-out made and could not take (behind an earlier one of its run, or beyond the free
 * slots), more than the last claim had room for, or deliveries it left out for their shares of
 * the slots. Deliveries another server fanned out,
 * and the expired leases of a server that died, are found by the dispatcher's periodic claim.
 */
export class WaitingDeliveries {
  private readonly unclaimed = new Set<string>();
  private overflow = false;
  private lastClaimFull = false;
  private nextWaiting = false;

  /** A fan-out stored `made` and, in the same transaction, claimed `claimed` of what was due. */
  fannedOut(made: readonly NewWebhookDelivery[], claimed: readonly WebhookDeliveryRecord[]): void {
    const taken = new Set(claimed.map((d) => d.id));
    for (const delivery of made) {
      if (taken.has(delivery.id)) continue;
      if (this.unclaimed.size < MAX_TRACKED) this.unclaimed.add(delivery.id);
      else this.overflow = true;
    }
  }

  /** A claim is being made: it takes whatever an answer let through. */
  claiming(): void {
    this.nextWaiting = false;
  }

  /**
   * A claim for up to `limit` returned `claimed`, with `inFlight` attempts here before it;
   * `leftOut`: it left due deliveries out for their shares of the slots (`SlotShares`).
   */
  claimed(claimed: readonly WebhookDeliveryRecord[], limit: number, inFlight: number, leftOut = false): void {
    for (const delivery of claimed) this.unclaimed.delete(delivery.id);
    this.lastClaimFull = claimed.length >= limit || leftOut;
    // Nothing taken and nothing in flight here: what is left waits on a retry or on another server.
    if (claimed.length === 0 && inFlight === 0) {
      this.unclaimed.clear();
      this.overflow = false;
    }
  }

  /** An attempt of `delivery` ended. */
  answered(delivery: WebhookDeliveryRecord): void {
    if (delivery.hasNext) this.nextWaiting = true;
  }

  /** Whether a claim now may find something an answer let through. */
  get any(): boolean {
    return this.nextWaiting || this.lastClaimFull || this.overflow || this.unclaimed.size > 0;
  }
}
