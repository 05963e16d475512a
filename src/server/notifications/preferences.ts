import { and, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_PREFERENCES,
  NOTIFICATION_AUDIENCE,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  type NotificationPreference,
  type NotificationPreferences,
  type NotificationPreferencesInput,
  type NotificationType,
} from '../../shared/notifications-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import type { Conn } from '../db/transaction.js';
import { organisesAClub } from '../clubs/access.js';
import { notificationPreference } from '../db/schema/notifications.js';

/** A user's choice for one type: the stored row, or the default. */
export async function preferenceOf(conn: Conn, userId: string, type: NotificationType): Promise<NotificationPreference> {
  const [row] = await conn
    .select({ inApp: notificationPreference.inApp, email: notificationPreference.email })
    .from(notificationPreference)
    .where(and(eq(notificationPreference.userId, userId), eq(notificationPreference.type, type)))
    .limit(1);
  return row ? { inApp: row.inApp, email: row.email as NotificationPreference['email'] } : DEFAULT_PREFERENCES[type];
}

/** Every type this user can get, with its channels (the settings table). */
export async function readPreferences(app: AppServices, viewer: Viewer): Promise<NotificationPreferences> {
  return { preferences: await preferencesOf(app.database.db, viewer) };
}

/**
 * The types that concern the viewer: educators' types to educators, organisers' to those who
 * organise a club now; the rest to everyone. A type not listed keeps its stored choice (the
 * user becomes an educator or an organiser: their earlier choice is there again).
 */
async function typesFor(conn: Conn, viewer: Viewer): Promise<NotificationType[]> {
  const needsOrganiser = NOTIFICATION_TYPES.some((t) => NOTIFICATION_AUDIENCE[t] === 'organiser');
  const organiser = needsOrganiser && (await organisesAClub(conn, viewer.user.id));
  return NOTIFICATION_TYPES.filter((type) => {
    const audience = NOTIFICATION_AUDIENCE[type];
    return !audience || (audience === 'educator' ? viewer.educator !== null : organiser);
  });
}

async function preferencesOf(conn: Conn, viewer: Viewer) {
  const rows = await conn.select().from(notificationPreference).where(eq(notificationPreference.userId, viewer.user.id));
  const stored = new Map(rows.map((r) => [r.type, r]));
  return (await typesFor(conn, viewer)).map((type) => {
    const row = stored.get(type);
    const pref = row ? { inApp: row.inApp, email: row.email as NotificationPreference['email'] } : DEFAULT_PREFERENCES[type];
    return { type, label: NOTIFICATION_TYPE_LABELS[type], ...pref };
  });
}

/** Changes the channels given, type by type; the others keep what they were. */
export async function updatePreferences(
  app: AppServices,
  viewer: Viewer,
  input: NotificationPreferencesInput,
): Promise<NotificationPreferences> {
  const userId = viewer.user.id;
  return app.database.db.transaction(async (tx) => {
    for (const [type, change] of Object.entries(input.preferences) as [NotificationType, Partial<NotificationPreference>][]) {
      await setPreference(tx, userId, type, change);
    }
    return { preferences: await preferencesOf(tx, viewer) };
  });
}

/** Stores one type's channels, starting from the current choice. */
export async function setPreference(conn: Conn, userId: string, type: NotificationType, change: Partial<NotificationPreference>) {
  const current = await preferenceOf(conn, userId, type);
  const next = { ...current, ...change };
  await conn
    .insert(notificationPreference)
    .values({ userId, type, inApp: next.inApp, email: next.email })
    .onConflictDoUpdate({
      target: [notificationPreference.userId, notificationPreference.type],
      set: { inApp: next.inApp, email: next.email, updatedAt: sql`now()` },
    });
}
