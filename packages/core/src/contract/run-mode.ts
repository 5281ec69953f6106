import { z } from 'zod';

/** How the agent works on a prompt: do it, plan it first, or orchestrate sub-runs. */
export const RUN_MODES = ['normal', 'plan', 'orchestrate'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const RunModeSchema = z.enum(RUN_MODES, { error: `must be one of ${RUN_MODES.join(', ')}` });
