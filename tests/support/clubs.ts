import { sql, type SQL } from 'drizzle-orm';
import type { TestApp } from './app.js';
import { createSignedInUser, type SignedInUser } from './factories.js';
import { sendAs } from './http.js';
import { clubBody, createClub, createClubEvents, eventBody, joinClub, localIn } from './club-data.js';
import type { ClubEventMap } from '../../src/server/clubs/events.js';

export { clubBody, eventBody, localIn };

/** Factories for the clubs capability (API tests). */
export const makeUser = (app: TestApp, firstName = 'Ada') => createSignedInUser(app, { firstName });
export const makeClub = (app: TestApp, owner: SignedInUser, overrides: Record<string, unknown> = {}) =>
  createClub(sendAs(app, owner.cookie), overrides);
export const makeEvents = (app: TestApp, organiser: SignedInUser, clubId: string, overrides: Record<string, unknown> = {}) =>
  createClubEvents(sendAs(app, organiser.cookie), clubId, overrides);
export const join = (app: TestApp, user: SignedInUser, clubId: string, answer?: string) =>
  joinClub(sendAs(app, user.cookie), clubId, answer);

export async function rows<T>(app: TestApp, query: SQL): Promise<T[]> {
  return ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const count = async (app: TestApp, query: SQL) => Number((await rows<{ n: number }>(app, query))[0].n);

/** Every event clubs announce in this app, recorded after commit (what notifications will hear). */
export function recordClubEvents(app: TestApp) {
  const heard: { name: keyof ClubEventMap; event: Record<string, unknown> }[] = [];
  const names: (keyof ClubEventMap)[] = [
    'club.join-requested',
    'club.request-approved',
    'club-event.created',
    'club-event.changed',
    'club-event.cancelled',
    'rsvp.promoted',
    'club.deleted',
    'event.reminder-due',
  ];
  for (const name of names)
    app.clubEvents.afterCommit(name, async (event) => {
      heard.push({ name, event: event as Record<string, unknown> });
    });
  return heard;
}

export const clubRows = (app: TestApp, clubId: string) =>
  rows<{ member_count: number; next_event_at: string | null }>(app, sql`select member_count, next_event_at from club where id = ${clubId}`);
