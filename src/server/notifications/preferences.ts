import { and, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_PREFERENCES,
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

/** Every type with its channels for this user (the settings table). */
export async function readPreferences(app: AppServices, viewer: Viewer): Promise<NotificationPreferences> {
  return { preferences: await preferencesOf(app.database.db, viewer.user.id) };
}

async function preferencesOf(conn: Conn, userId: string) {
  const rows = await conn.select().from(notificationPreference).where(eq(notificationPreference.userId, userId));
  const stored = new Map(rows.map((r) => [r.type, r]));
  return NOTIFICATION_TYPES.map((type) => {
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
    return { preferences: await preferencesOf(tx, userId) };
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
