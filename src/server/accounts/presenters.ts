import { DEFAULT_AVATAR, type CurrentUser } from '../../shared/accounts.js';
import type { Viewer } from './viewer.js';

export function presentCurrentUser(v: Viewer): CurrentUser {
  const u = v.user;
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    city: u.city,
    timeZone: u.timeZone,
    stripeCustomerId: u.stripeCustomerId,
    profileImage: u.image || DEFAULT_AVATAR,
    verified: u.verified,
    createdAt: u.createdAt.toISOString(),
    lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
    educator: v.educator ? { userId: u.id, ...v.educator } : null,
  };
}

/** "Chrome on Linux" from a user agent, for the list of active sessions. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl|node|undici/i.test(userAgent)
            ? 'Script'
            : 'Browser';
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}
