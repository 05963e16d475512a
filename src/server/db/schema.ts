import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The database schema. The auth tables (user, session, account, verification) follow
 * better-auth's model names; their columns are snake_case and keep the spec's user
 * fields (section 3): verified, profile_image, created_at, last_sign_in_at, ...
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const user = pgTable('user', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  /** Display name kept by the auth library ("First Last"). */
  name: text('name').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  city: text('city'),
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
});

export const session = pgTable(
  'session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull().unique(),
    userId: uuid('user_id').notNull().references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    impersonatedBy: uuid('impersonated_by'),
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
    userId: uuid('user_id').notNull().references(() => user.id, { onDelete: 'cascade' }),
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

/** An educator is a user with this record (spec section 3). */
export const educator = pgTable('educator', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  bio: text('bio'),
  profileImage: text('profile_image'),
  stripeConnectAccountId: text('stripe_connect_account_id'),
  headline: text('headline'),
  subjects: jsonb('subjects').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  links: jsonb('links').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Every email the app sends; with no SMTP_URL this is the local outbox. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** 'outbox' (kept locally) or 'smtp' (handed to the SMTP server). */
    transport: text('transport').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_outbox_created_at_idx').on(t.createdAt)],
);

/** Attempts counted for rate limits that must hold across restarts and instances. */
export const rateLimitHit = pgTable(
  'rate_limit_hit',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ts('reset_at').notNull(),
  },
);
export * from './schema-courses.js';
export * from './schema-payments.js';
