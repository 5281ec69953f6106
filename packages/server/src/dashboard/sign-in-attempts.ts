/** How many wrong keys one client address may send: a burst, then one try per `refillMs`. */
export interface SignInAttemptLimits {
  burst: number;
  refillMs: number;
  /** Addresses remembered at most; those with every try back are forgotten first. */
  maxAddresses: number;
}

export const DEFAULT_SIGN_IN_ATTEMPTS: SignInAttemptLimits = { burst: 10, refillMs: 1_000, maxAddresses: 10_000 };

interface Bucket {
  tries: number;
  at: number;
}

/**
 * The dashboard's sign-in attempts per client address (a token bucket each): a wrong key
 * spends a try; an address with none left is refused before its key is looked at, and each
 * refused attempt spends one more (down to `-burst`), so guessing keys runs at one a second
 * at most, not as fast as the server answers, and hammering on only keeps the address out.
 */
export class SignInAttempts {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: SignInAttemptLimits = DEFAULT_SIGN_IN_ATTEMPTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when `address` may try a key now; else the milliseconds until it may, this attempt spent. */
  admit(address: string): number {
    const at = this.now();
    const tries = this.triesOf(address, at);
    if (tries >= 1) return 0;
    const left = Math.max(-this.limits.burst, tries - 1);
    this.spend(address, left, at);
    return Math.ceil((1 - left) * this.limits.refillMs);
  }

  /** A wrong key from `address`: one try spent. */
  failed(address: string): void {
    const at = this.now();
    this.spend(address, this.triesOf(address, at) - 1, at);
  }

  private spend(address: string, tries: number, at: number): void {
    // Most recently spent last, so the least recent go first when there are too many.
    this.buckets.delete(address);
    this.buckets.set(address, { tries, at });
    if (this.buckets.size > this.limits.maxAddresses) this.forget(at);
  }

  private triesOf(address: string, at: number): number {
    const bucket = this.buckets.get(address);
    return bucket ? this.refilled(bucket, at) : this.limits.burst;
  }

  private refilled(bucket: Bucket, at: number): number {
    return Math.min(this.limits.burst, bucket.tries + (at - bucket.at) / this.limits.refillMs);
  }

  /** Forgets the addresses whose tries are all back, then the least recently spent. */
  private forget(at: number): void {
    for (const [address, bucket] of this.buckets) {
      if (this.refilled(bucket, at) >= this.limits.burst) this.buckets.delete(address);
    }
    for (const address of this.buckets.keys()) {
      if (this.buckets.size <= this.limits.maxAddresses) break;
      this.buckets.delete(address);
    }
  }
}
