import type { NetworkPolicy } from './sandbox/network-policy.js';

/** What a run's environment adds to its agent's start. */
export interface RunPolicy {
  /** Variables (the environment's named secrets). */
  env: Record<string, string>;
  network?: NetworkPolicy | undefined;
}
