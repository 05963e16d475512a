import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPE_LABELS, NOTIFICATION_TYPES, type NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { accountExists } from '../accounts/people.js';
import { preferenceOf, setPreference } from './preferences.js';

/**
 * One-click unsubscribe (RFC 8058): every notification email carries a link that turns its
 * type's email off without signing in. The token is `<user>.<scope>.<signature>`: the
 * scope is a type, or 'digest' (every type the daily digest gathers); the signature is an
 * HMAC with the app's secret, so a token cannot be made for another user or type. It does
 * not expire: an old email's link must still work (it only ever turns email off).
 */
export type UnsubscribeScope = NotificationType | 'digest';

const sign = (secret: string, userId: string, scope: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${scope}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string, scope: UnsubscribeScope) {
  return `${userId}.${scope}.${sign(secret, userId, scope)}`;
}

export function unsubscribeUrl(app: Pick<AppServices, 'config'>, userId: string, scope: UnsubscribeScope) {
  return `${app.config.publicUrl}/api/notifications/unsubscribe?token=${unsubscribeToken(app.config.authSecret, userId, scope)}`;
}

/** The user and scope of a genuine token, or null. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; scope: UnsubscribeScope } | null {
  const [userId, scope, signature, ...rest] = token.split('.');
  if (rest.length || !userId || !signature) return null;
  if (scope !== 'digest' && !(NOTIFICATION_TYPES as readonly string[]).includes(scope)) return null;
  const expected = Buffer.from(sign(secret, userId, scope));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { userId, scope: scope as UnsubscribeScope };
}

/** What the confirmation page says the link stops. */
export function scopeLabel(scope: UnsubscribeScope) {
  return scope === 'digest' ? 'the daily digest' : NOTIFICATION_TYPE_LABELS[scope].toLowerCase();
}

/** Turns the scope's email off for the token's user; null when the token is not genuine (or the user is gone). */
export async function unsubscribe(app: AppServices, token: string): Promise<{ scope: UnsubscribeScope } | null> {
  const found = readUnsubscribeToken(app.config.authSecret, token);
  if (!found) return null;
  const db = app.database.db;
  return db.transaction(async (tx) => {
    if (!(await accountExists(tx, found.userId))) return null;
    if (found.scope === 'digest') {
      for (const type of NOTIFICATION_TYPES)
        if ((await preferenceOf(tx, found.userId, type)).email === 'digest') await setPreference(tx, found.userId, type, { email: 'off' });
    } else {
      await setPreference(tx, found.userId, found.scope, { email: 'off' });
    }
    return { scope: found.scope };
  });
}
