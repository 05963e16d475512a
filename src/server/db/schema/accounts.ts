import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Accounts. The auth tables (user, session, account, verification) keep better-auth's
 * model names (the `session` table holds sign-in sessions: signInSession); their columns are snake_case and keep the spec's user
 * fields (section 3): verified, profile_image, created_at, last_sign_in_at, ...
 */

export const user = pgTable('user', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  /** Display name kept by the auth library ("First Last"). */
  name: text('name').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  city: text('city'),
  /** The user's IANA time zone (their daily digest goes at the end of their own day); null: UTC. */
  timeZone: text('time_zone'),
  stripeCustomerId: text('stripe_customer_id'),
  image: text('profile_image'),
  emailVerified: boolean('verified').notNull().default(false),
  birthdate: date('birthdate', { mode: 'string' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  lastSignInAt: ts('last_sign_in_at'),
  role: text('role').notNull().default('user'),
  banned: boolean('banned').notNull().default(false),
  banReason: text('ban_reason'),
  banExpires: ts('ban_expires'),
  /** better-auth's two-factor plugin: on once an authenticator app was confirmed with a code. */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
});

/** A sign-in session (better-auth's `session` model): the cookie's token, per device. */
export const signInSession = pgTable(
  'session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    impersonatedBy: uuid('impersonated_by'),
    /**
     * Authenticator assurance: aal1 (password or Google only), aal2 (a second factor was
     * checked in this session, at second_factor_at). Written by our routes, not the library.
     */
    aal: text('aal').notNull().default('aal1'),
    secondFactorAt: ts('second_factor_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: ts('access_token_expires_at'),
    refreshTokenExpiresAt: ts('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** better-auth's two-factor plugin (model twoFactor): the encrypted TOTP key and backup codes. */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
  },
  (t) => [index('two_factor_user_id_idx').on(t.userId), index('two_factor_secret_idx').on(t.secret)],
);

/**
 * Every rate limit's counts (accounts/rate-limits.ts): one row per key and fixed window, so
 * a limit holds across restarts and instances. Windows that ended are swept by reset_at.
 */
export const rateLimitHit = pgTable(
  'rate_limit_hit',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ts('reset_at').notNull(),
  },
  (t) => [index('rate_limit_hit_reset_at_idx').on(t.resetAt)],
);

/**
 * An educator is a user with this record (spec section 3): their educator profile, part of
 * the account (the viewer lookup reads it). Accounts own it; educators/ holds the use cases
 * on it (ADR 0035).
 */
export const educator = pgTable('educator', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  bio: text('bio'),
  profileImage: text('profile_image'),
  stripeConnectAccountId: text('stripe_connect_account_id'),
  headline: text('headline'),
  subjects: jsonb('subjects')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  links: jsonb('links')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * A learner profile (family accounts, ADR 0074): someone the account holder enrols who has no
 * account of their own (a child). The account holder pays, is the contact and sees its record;
 * enrolments made for it carry its id (`enrolment.learner_profile_id`). The age is kept as the
 * holder gave it (an age, or a range such as 8-10) with the day it was given, and grows with
 * the years since (`learnerAgeNow`). Deleting the account deletes its profiles.
 */
export const learnerProfile = pgTable(
  'learner_profile',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    /** The age given (a single age: min = max), in whole years, on `agesAsOf`. */
    ageMin: smallint('age_min').notNull(),
    ageMax: smallint('age_max').notNull(),
    agesAsOf: date('ages_as_of', { mode: 'string' }).notNull(),
    /** Optional notes for the educators of the sessions it is enrolled in. */
    notes: text('notes'),
    /** Set once the profile became an account of its own (its enrolments moved there). */
    becameUserId: uuid('became_user_id').references(() => user.id, { onDelete: 'set null' }),
    /** Set when its account holder removed it while it had past classes (kept for that history, hidden). */
    removedAt: ts('removed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('learner_profile_account_idx').on(t.accountId, t.createdAt),
    check('learner_profile_ages_valid', sql`${t.ageMin} between 0 and 120 and ${t.ageMax} between ${t.ageMin} and 120`),
  ],
);
