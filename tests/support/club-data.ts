import { expectStatus, type Send } from './test-data.js';

/**
 * Club request bodies and factories both suites use (no Vitest here: the end-to-end
 * suite imports this too).
 */
export const clubBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Tuesday Chess Circle',
  description: 'We play **chess** every week: beginners welcome, boards provided.',
  category: 'social',
  city: 'Lisbon',
  online: false,
  visibility: 'public',
  joinQuestion: null,
  rules: 'Be kind. Touch-move applies.',
  ...overrides,
});

/** "YYYY-MM-DDTHH:MM", `days` days from now (UTC date) at `time`: a wall-clock time for the event form. */
export function localIn(days: number, time = '19:00'): string {
  return `${new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10)}T${time}`;
}

export const eventBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Blitz night',
  description: 'Five-minute games, then analysis.',
  startsAt: localIn(7, '19:00'),
  endsAt: localIn(7, '21:00'),
  timeZone: 'Europe/Lisbon',
  address: 'Rua Augusta 10, Lisbon',
  onlineUrl: null,
  capacity: null,
  ...overrides,
});

/** A club of this user (its owner); answers its id. */
export async function createClub(send: Send, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await expectStatus(send('POST', '/api/clubs', clubBody(overrides)), 201, 'creating a club')).json().id;
}

/** An event of a club (or every event of a repeat); answers the ids. */
export async function createClubEvents(send: Send, clubId: string, overrides: Record<string, unknown> = {}): Promise<string[]> {
  return (await expectStatus(send('POST', `/api/clubs/${clubId}/events`, eventBody(overrides)), 201, 'creating an event')).json().ids;
}

export async function joinClub(send: Send, clubId: string, answer?: string): Promise<string> {
  return (await expectStatus(send('POST', `/api/clubs/${clubId}/join`, answer ? { answer } : undefined), 200, 'joining a club')).json()
    .state;
}
