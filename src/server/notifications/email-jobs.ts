import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { NOTIFICATION_TYPES, type NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { mailContactOf } from '../accounts/people.js';
import { notification } from '../db/schema/notifications.js';
import { digestEmail, withUnsubscribe } from '../email/templates.js';
import { runFanOut, type FanOut } from './fan-out.js';
import { dayBounds, JOBS } from './notify.js';
import { preferenceOf } from './preferences.js';
import { render, renderEmail, type NotificationData } from './render.js';
import { scopeLabel, unsubscribeUrl } from './unsubscribe.js';

/**
 * The jobs behind notification emails (jobs/queue.ts: durable, retried, at least once).
 * Each re-reads the user's preference when it runs: an unsubscribe between the cause and
 * the job stops the email.
 */
export function registerNotificationJobs(app: AppServices) {
  app.jobs.register(JOBS.email, (payload) => sendNow(app, payload as { userId: string; type: NotificationType; data: NotificationData }));
  app.jobs.register(JOBS.digest, (payload) => sendDigest(app, payload as { userId: string; day: string; timeZone?: string | null }));
  app.jobs.register(JOBS.fanOut, (payload) => runFanOut(app, payload as FanOut));
}

async function recipient(app: AppServices, userId: string) {
  const u = await mailContactOf(app.database.db, userId);
  return u && !u.banned ? u : null;
}

async function sendNow(app: AppServices, job: { userId: string; type: NotificationType; data: NotificationData }) {
  if (!(NOTIFICATION_TYPES as readonly string[]).includes(job.type)) return;
  if ((await preferenceOf(app.database.db, job.userId, job.type)).email !== 'instant') return;
  const u = await recipient(app, job.userId);
  if (!u) return;
  const message = renderEmail(job.type, job.data, u, app.config.publicUrl);
  await app.mailer.send(withUnsubscribe(message, unsubscribeUrl(app, job.userId, job.type), scopeLabel(job.type)));
}

/**
 * One email with the day's items still set to the digest; each item goes out once. The day
 * is the user's own (`timeZone`, as when it was scheduled; jobs written before zones: UTC).
 */
async function sendDigest(app: AppServices, job: { userId: string; day: string; timeZone?: string | null }) {
  const db = app.database.db;
  const u = await recipient(app, job.userId);
  if (!u) return;
  const timeZone = job.timeZone ?? null;
  const { start, end } = dayBounds(job.day, timeZone);
  const rows = await db
    .select({ id: notification.id, type: notification.type, data: notification.data })
    .from(notification)
    .where(
      and(
        eq(notification.userId, job.userId),
        isNull(notification.digestedAt),
        gte(notification.createdAt, start),
        lt(notification.createdAt, end),
      ),
    )
    .orderBy(asc(notification.createdAt));
  const wanted = new Map<string, boolean>();
  const items: { id: string; title: string; body: string; url: string }[] = [];
  for (const row of rows) {
    if (!(NOTIFICATION_TYPES as readonly string[]).includes(row.type)) continue;
    const type = row.type as NotificationType;
    if (!wanted.has(type)) wanted.set(type, (await preferenceOf(db, job.userId, type)).email === 'digest');
    if (!wanted.get(type)) continue;
    const r = render(type, row.data, timeZone);
    items.push({ id: row.id, title: r.title, body: r.body, url: `${app.config.publicUrl}${r.link}` });
  }
  if (!items.length) return;
  // The day as the user lives it (noon of that day: its date in any zone's naming).
  const day = new Date(`${job.day}T12:00:00Z`).toLocaleDateString('en', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const message = digestEmail(u.email, u.firstName, { day, items, url: `${app.config.publicUrl}/mailbox/notifications` });
  await app.mailer.send(withUnsubscribe(message, unsubscribeUrl(app, job.userId, 'digest'), scopeLabel('digest')));
  for (const item of items) await db.update(notification).set({ digestedAt: new Date() }).where(eq(notification.id, item.id));
}
