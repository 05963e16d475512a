import { randomUUID } from 'node:crypto';
import type { NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { dateIn, wallTimeToUtc } from '../../shared/time.js';
import { timeZoneOf } from '../accounts/people.js';
import { notification } from '../db/schema/notifications.js';
import type { Conn } from '../db/transaction.js';
import { preferenceOf } from './preferences.js';
import type { NotificationData } from './render.js';

/** Job kinds of notifications (handlers in notifications/email-jobs.ts). */
export const JOBS = {
  email: 'notification.email',
  digest: 'notification.digest',
  /** Many people told in batches after the commit (notifications/fan-out.ts). */
  fanOut: 'notification.fan-out',
} as const;

export type Notify = typeof notify;

export interface Notified {
  /** The stored notification (null: the user's preferences stored none). */
  id: string | null;
  /** Pushes it live and starts its email; run once the transaction has committed (notify runs it itself without `conn`). */
  afterCommit: () => Promise<void>;
}

/** The day (yyyy-mm-dd) `at` falls on in `timeZone` (null: UTC): the digest it belongs to. */
export const dayOf = (at: Date, timeZone: string | null = null) => dateIn(at, timeZone ?? 'UTC');

/** When a day of a zone begins and ends (DST-correct: a day may last 23 or 25 hours). */
export function dayBounds(day: string, timeZone: string | null): { start: Date; end: Date } {
  const zone = timeZone ?? 'UTC';
  const [year, month, date] = day.split('-').map(Number);
  const next = new Date(Date.UTC(year, month - 1, date + 1));
  return {
    start: wallTimeToUtc({ year, month, day: date, hour: 0, minute: 0 }, zone),
    end: wallTimeToUtc({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0 }, zone),
  };
}

/**
 * The one way anything reaches a user (issue 10): honours their preferences for `type`
 * (off: nothing; in-app off: no list entry), stores the notification, and schedules its
 * email (at once, in the day's digest, or for a new message: once, if still unread after a
 * delay). With `conn` (the causing transaction) everything is written there, so the
 * notification and its email exist exactly when the change committed; the caller runs
 * `afterCommit` once committed (an in-transaction listener returns it as its follow-up).
 */
export async function notify(
  app: AppServices,
  userId: string,
  type: NotificationType,
  data: NotificationData,
  opts: { conn?: Conn } = {},
): Promise<Notified> {
  const conn = opts.conn ?? app.database.db;
  const pref = await preferenceOf(conn, userId, type);
  const nothing: Notified = { id: null, afterCommit: async () => {} };
  if (!pref.inApp && pref.email === 'off') return nothing;

  // A new message's in-app entry is the mailbox's unread state, derived when the list is read
  // (mailbox/unread-notices.ts): a row is stored for its digest only. What reaches notify() for a new
  // message is already "still unread after a while" (mailbox/unread-reminder.ts).
  const storeInApp = pref.inApp && type !== 'new_message';
  let id: string | null = null;
  if (storeInApp || pref.email === 'digest') id = await store(conn, userId, type, data, storeInApp);
  const emailKeys: string[] = [];
  if (pref.email === 'instant') {
    const key = `notification-email:${id ?? randomUUID()}`;
    await app.jobs.schedule(JOBS.email, { userId, type, data }, { key, conn });
    emailKeys.push(key);
  } else if (pref.email === 'digest') {
    // At the end of the user's own day (their time zone; UTC when they set none).
    const timeZone = await timeZoneOf(conn, userId);
    const day = dayOf(new Date(), timeZone);
    const runAt = dayBounds(day, timeZone).end;
    await app.jobs.schedule(JOBS.digest, { userId, day, timeZone }, { runAt, key: `digest:${userId}:${day}`, conn });
  }

  const inApp = storeInApp && id;
  const afterCommit = async () => {
    if (inApp) {
      await app.realtime.publishMany([
        [userId, { type: 'notification.new', notificationId: id }],
        [userId, { type: 'unread.changed', counter: 'notifications' }],
      ]);
    }
    if (emailKeys.length) {
      // Sent by the job, never by the request. The local outbox is one insert: it is waited
      // for (as the mailer did before, ADR 0012); over SMTP the request does not wait.
      const sending = app.jobs.runNow(emailKeys);
      if (app.mailer.transport === 'outbox') await sending;
    }
  };
  if (!opts.conn) await afterCommit();
  return { id, afterCommit };
}

async function store(conn: Conn, userId: string, type: NotificationType, data: NotificationData, inApp: boolean) {
  const [row] = await conn.insert(notification).values({ userId, type, data, inApp }).returning({ id: notification.id });
  return row.id;
}
