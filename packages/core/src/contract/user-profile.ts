import { z } from 'zod';

/** A person or service account: a run's creator or executor, a schedule's editor. */
export const UserProfileSchema = z
  .looseObject({
    type: z.union([z.enum(['user', 'service_account']), z.string()]).optional(),
    uid: z.string().optional(),
    display_name: z.string().optional(),
    email: z.string().optional(),
    photo_url: z.string().optional(),
  })
  .describe('A user or service account');

export type UserProfile = z.infer<typeof UserProfileSchema>;

/** Who owns something: a user or a team. */
export const ScopeSchema = z
  .looseObject({
    type: z.union([z.enum(['User', 'Team']), z.string()]),
    uid: z.string().optional(),
  })
  .describe('The owner: a user or a team');

export type Scope = z.infer<typeof ScopeSchema>;
