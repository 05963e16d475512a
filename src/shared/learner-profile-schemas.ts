import { z } from 'zod';
import { str } from './input-schemas.js';

/**
 * Family accounts (ADR 0074): the learner profiles an account holder keeps for people they
 * enrol who have no account of their own (their children). Server validation and web forms.
 */

/** How many learner profiles one account may keep (a family, not a school). */
export const MAX_LEARNER_PROFILES = 10;
export const LEARNER_NAME_MAX = 50;
export const LEARNER_NOTES_MAX = 500;
export const MAX_AGE = 120;

export const AGE_HINT = 'Enter an age like 8, or a range like 8-10';

/**
 * "8" or "8-10" (an en dash, "to" and spaces too) as whole years 0-120, youngest first;
 * a message a person understands otherwise.
 */
export function parseAges(text: string): { min: number; max: number } | { error: string } {
  const t = text.trim();
  if (!t) return { error: AGE_HINT };
  const m = /^(\d{1,3})(?:\s*(?:-|–|—|to)\s*(\d{1,3}))?$/i.exec(t);
  if (!m) return { error: AGE_HINT };
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (min > MAX_AGE || max > MAX_AGE) return { error: `An age is a whole number from 0 to ${MAX_AGE}` };
  if (min > max) return { error: `Put the younger age first: ${max}-${min}` };
  return { min, max };
}

/** "8" for one age, "8-10" for a range. */
export const agesText = ({ min, max }: { min: number; max: number }) => (min === max ? `${min}` : `${min}-${max}`);

const ages = str()
  .max(20, AGE_HINT)
  .transform((s, ctx) => {
    const parsed = parseAges(s);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed;
  });

const firstName = str()
  .trim()
  .min(1, "Enter the learner's first name")
  .max(LEARNER_NAME_MAX, `A first name is at most ${LEARNER_NAME_MAX} characters`);

const notes = str()
  .trim()
  .max(LEARNER_NOTES_MAX, `Notes are at most ${LEARNER_NOTES_MAX} characters`)
  .nullable()
  .optional()
  .transform((s) => (s ? s : null));

/** A new learner: a first name, an age or a range ("8" or "8-10"), optional notes for the educators. */
export const learnerProfileBody = z.object({ firstName, age: ages, notes });
export type LearnerProfileBody = z.input<typeof learnerProfileBody>;

/** Changes to a learner: any of the fields (a new age counts from today). */
export const learnerProfileChanges = z
  .object({ firstName, age: ages, notes })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type LearnerProfileChanges = z.input<typeof learnerProfileChanges>;

export const learnerProfileParams = z.object({ learnerProfileId: z.uuid('Unknown learner') });

export const learnerProfileView = z.object({
  id: z.string(),
  firstName: z.string(),
  /** The age today ("8" or "8-10"): the age given, grown by the years since. */
  age: z.string(),
  ageMin: z.number().int(),
  ageMax: z.number().int(),
  notes: z.string().nullable(),
});
export type LearnerProfileView = z.infer<typeof learnerProfileView>;

/** An invitation to an account of their own still open: the address it went to, and when its link stops working. */
export const pendingLearnerInvite = z.object({ learnerProfileId: z.string(), email: z.string(), expiresAt: z.string() });
export type PendingLearnerInvite = z.infer<typeof pendingLearnerInvite>;

export const learnerProfileList = z.object({
  items: z.array(learnerProfileView),
  max: z.number().int(),
  /** The open invitations of these learners (at most one each). */
  invites: z.array(pendingLearnerInvite),
});
export type LearnerProfileList = z.infer<typeof learnerProfileList>;

export const learnerProfileAnswer = z.object({ learner: learnerProfileView, message: z.string() });
export const learnerProfileRemoved = z.object({ message: z.string() });

/** Inviting a learner to an account of their own: the address the invitation goes to. */
export const learnerInviteBody = z.object({
  email: z.email('Enter a valid email address').max(254, 'This email address is too long'),
});
export type LearnerInviteBody = z.input<typeof learnerInviteBody>;

const inviteToken = str().min(1, 'The invitation link is incomplete').max(200, 'The invitation link is not valid');

export const learnerInviteQuery = z.object({ token: inviteToken });

/** What the invitation page shows before the account is made. */
export const learnerInviteView = z.object({ email: z.string(), firstName: z.string(), holderName: z.string() });
export type LearnerInviteView = z.infer<typeof learnerInviteView>;

/** Creating the account from the invitation: the first name and email come from it. */
export const learnerInviteAccept = z.object({
  token: inviteToken,
  lastName: str().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
  password: str().max(128, 'A password is at most 128 characters'),
  birthdate: str().max(20, 'Enter the birthdate as YYYY-MM-DD'),
});
export type LearnerInviteAccept = z.input<typeof learnerInviteAccept>;
