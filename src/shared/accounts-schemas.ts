import { z } from 'zod';

/** Request and response schemas of the accounts API (validation on the server, types on both sides). */
const trimmed = z.string().transform((s) => s.trim());
/** A form field: trimmed, and an omitted one counts as empty (so it gets "Empty Fields"). */
const field = z.string().optional().transform((s) => (s ?? '').trim());

export const signUpBody = z.object({
  email: field,
  firstName: field,
  lastName: field,
  password: field,
  birthdate: field,
});
export type SignUpBody = z.input<typeof signUpBody>;

export const signInBody = z.object({
  email: field,
  password: field,
  rememberMe: z.boolean().optional(),
});
export type SignInBody = z.input<typeof signInBody>;

export const emailBody = z.object({ email: field });

export const resetPasswordBody = z.object({
  token: z.string().min(1, 'The reset link is incomplete'),
  password: trimmed,
});

export const updateProfileBody = z
  .object({
    firstName: z.string().trim().min(1, 'First name is required').max(80, 'First name is too long'),
    lastName: z.string().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
    city: z.string().trim().max(120, 'City is too long'),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

export const educatorSummary = z.object({
  userId: z.string(),
  bio: z.string().nullable(),
  profileImage: z.string().nullable(),
  stripeConnectAccountId: z.string().nullable(),
});

export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  city: z.string().nullable(),
  stripeCustomerId: z.string().nullable(),
  profileImage: z.string(),
  verified: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  educator: educatorSummary.nullable(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const sessionInfo = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

