import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The sandbox's own tables, in their own PostgreSQL schema so they never mix with the
 * tables of the app that mounts it. Created and migrated by the plugin itself when it is
 * registered (migrate.ts, SQL in ../migrations made by `npm run db:generate` here).
 */
export const sandboxSchema = pgSchema('stripe_sandbox');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every Stripe object the sandbox serves, stored as Stripe's JSON shape. */
export const sandboxObject = sandboxSchema.table(
  'object',
  {
    id: text('id').primaryKey(),
    /** Stripe's `object` field: customer, product, price, checkout.session, ... */
    type: text('type').notNull(),
    /** Connect account the object belongs to (Stripe-Account header), if any. */
    account: text('account'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Owner relation for lookups, e.g. the customer of a subscription, the session of a charge. */
    parent: text('parent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('object_type_idx').on(t.type, t.createdAt), index('object_parent_idx').on(t.parent)],
);

/** Idempotency keys the sandbox has seen: the same key answers the same response. */
export const sandboxIdempotency = sandboxSchema.table('idempotency_key', {
  key: text('key').primaryKey(),
  requestHash: text('request_hash').notNull(),
  status: integer('status').notNull(),
  response: jsonb('response').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Webhook deliveries of sandbox events, retried with back-off until they succeed. */
export const sandboxDelivery = sandboxSchema.table(
  'delivery',
  {
    eventId: text('event_id').primaryKey(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
  },
  (t) => [
    index('delivery_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`delivered_at is null`),
  ],
);
