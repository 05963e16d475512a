import { z } from 'zod';
import { isTimeZone, str } from './input-schemas.js';

/** Request and response schemas of the accounts API (validation on the server, types on both sides). */
const trimmed = str()
  .max(10_000, 'This is too long')
  .transform((s) => s.trim());
/**
 * A form field: trimmed, and an omitted one counts as empty (so it gets "Empty Fields").
 * Capped well above every field's own limit (checked with the spec's messages) so a huge
 * value is refused before it reaches the auth library or the database.
 */
const field = str()
  .max(10_000, 'This is too long')
  .optional()
  .transform((s) => (s ?? '').trim());
/** An email field: no address is longer than 254 characters. */
const emailField = str()
  .max(254, 'Enter a valid email address')
  .optional()
  .transform((s) => (s ?? '').trim());

export const signUpBody = z.object({
  email: emailField,
  firstName: field,
  lastName: field,
  password: field,
  birthdate: field,
});
export type SignUpBody = z.input<typeof signUpBody>;

export const signInBody = z.object({
  email: emailField,
  password: field,
  rememberMe: z.boolean().optional(),
});
export type SignInBody = z.input<typeof signInBody>;

export const emailBody = z.object({ email: emailField });

export const resetPasswordBody = z.object({
  token: str().min(1, 'The reset link is incomplete').max(1000, 'The reset link is invalid'),
  password: trimmed,
});

export const updateProfileBody = z
  .object({
    firstName: str().trim().min(1, 'First name is required').max(80, 'First name is too long'),
    lastName: str().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
    city: str().trim().max(120, 'City is too long'),
    timeZone: str().refine(isTimeZone, 'Unknown time zone'),
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
  /** IANA zone (daily digests end with the user's own day); null until set (UTC meanwhile). */
  timeZone: z.string().nullable(),
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
