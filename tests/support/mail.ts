import ICAL from 'ical.js';
import { expect, vi } from 'vitest';
import type { TestApp } from './app.js';
import { followLink, newUser, signIn, signUp, type NewUser } from './factories.js';
import { get } from './http.js';
import { parseMime, type LocalSmtpServer } from './smtp.js';

/**
 * Reading what a test's local SMTP server (./smtp.ts) received: its messages for one address,
 * parsed, the calendar invitations they carry, and a user verified through the link mailed to
 * them. Kept apart from smtp.ts, which a benchmark also starts outside vitest.
 */

export type Mail = ReturnType<typeof parseMime>;

/** The messages received so far for `to` whose subject matches, parsed, in the order received. */
export const mailsTo = (smtp: LocalSmtpServer, to: string, subject: RegExp): Mail[] =>
  smtp.received
    .filter((m) => m.to.includes(to))
    .map((m) => parseMime(m.raw))
    .filter((m) => subject.test(m.headers.subject ?? ''));

/** Waits (emails are background jobs) until `n` such messages arrived; answers all of them. */
export async function mailTo(smtp: LocalSmtpServer, to: string, subject: RegExp, n = 1): Promise<Mail[]> {
  return vi.waitFor(
    () => {
      const found = mailsTo(smtp, to, subject);
      expect(found.length, `mail "${subject}" for ${to}`).toBeGreaterThanOrEqual(n);
      return found;
    },
    { timeout: 20_000, interval: 100 },
  );
}

/** A message's text/plain part. */
export const textOf = (mail: Mail) => mail.parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body;

/** A verified, signed-in user (the verification link arrives over SMTP), with their id. */
export async function verifiedUser(app: TestApp, smtp: LocalSmtpServer, fields: Partial<NewUser> = {}) {
  const u = newUser(fields);
  expect((await signUp(app, u)).statusCode).toBe(201);
  const [verify] = await mailTo(smtp, u.email, /verify/i);
  const link = /https?:\/\/\S+/.exec(textOf(verify))![0];
  expect((await followLink(app, link)).statusCode).toBe(302);
  const cookie = await signIn(app, u.email, u.password);
  const me = (await get(app, '/api/me', { cookie })).json() as { id: string };
  return { ...u, cookie, id: me.id };
}

/** The calendar invitation a message carries (its text/calendar part), parsed by ical.js, with the part's content type. */
export function invitationOf(mail: Mail) {
  const part = mail.parts.find((p) => p.headers['content-type']?.startsWith('text/calendar'));
  expect(part, 'a text/calendar part').toBeDefined();
  const cal = ICAL.Component.fromString(part!.body);
  const events = cal.getAllSubcomponents('vevent').map((ev) => ({
    uid: String(ev.getFirstPropertyValue('uid')),
    sequence: Number(ev.getFirstPropertyValue('sequence')),
    start: (ev.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    end: (ev.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(),
    summary: String(ev.getFirstPropertyValue('summary')),
    location: ev.getFirstPropertyValue('location') as string | null,
    description: String(ev.getFirstPropertyValue('description')),
    status: String(ev.getFirstPropertyValue('status')),
    organizer: String(ev.getFirstPropertyValue('organizer')),
    attendee: String(ev.getFirstPropertyValue('attendee')),
  }));
  return { method: String(cal.getFirstPropertyValue('method')), contentType: part!.headers['content-type'], events };
}
