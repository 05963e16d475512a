import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { famcDropProfileSeat, famcSeatForLearnerProfile, famcSeatsForLearnerProfiles } from '../../support/family.js';
import { get, sendAs } from '../../support/http.js';
import { becomeEducator, createClassTimes, createCourse, createSession, publishCourse } from '../../support/test-data.js';
import { startSmtpServer, type LocalSmtpServer } from '../../support/smtp.js';
import { invitationOf, mailTo, mailsTo, textOf, verifiedUser } from '../../support/mail.js';

/**
 * Class reminders and calendar invitations for a family account (issue 26 part 3, ADR 0068,
 * 0074), over a real SMTP server, the documents parsed with ical.js: a parent with two
 * children in one session gets one reminder per class naming both, one calendar entry per
 * class naming the children; dropping one updates it, dropping the last cancels it.
 */
let smtp: LocalSmtpServer;
let app: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Agora <hello@agora.test>' });
});
afterAll(async () => {
  await app?.close();
  await smtp?.stop();
});

const user = (firstName: string, lastName = 'Ruiz') => verifiedUser(app, smtp, { firstName, lastName });
type User = Awaited<ReturnType<typeof user>>;

function inHours(hours: number) {
  const start = new Date(Math.floor((Date.now() + hours * 3600_000) / 60_000) * 60_000);
  return {
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + 60 * 60_000).toISOString(),
    meetingUrl: 'https://meet.example.com/chess',
  };
}

const notes = async (who: User) =>
  (
    (await get(app, '/api/notifications?limit=100', { cookie: who.cookie })).json().notifications as { type: string; title: string }[]
  ).filter((n) => n.type === 'class_reminder');

describe("a parent's two children in one session", () => {
  it('one invitation entry per class naming both; one reminder per class naming both; a drop updates, the last drop cancels', async () => {
    const educator = await user('Grace', 'Hopper');
    await becomeEducator(sendAs(app, educator.cookie));
    const send = sendAs(app, educator.cookie);
    const courseId = await createCourse(send, { title: 'Chess for Kids', priceCents: 0 });
    const sessionId = await createSession(send, courseId);
    const [classTimeId] = await createClassTimes(send, courseId, sessionId, inHours(25));
    await createClassTimes(send, courseId, sessionId, inHours(49));
    await publishCourse(send, courseId);
    const at = { courseId, sessionId };

    const ana = await user('Ana');
    const mia = await famcSeatForLearnerProfile(app, ana, at, 'Mia');
    const leo = await famcSeatForLearnerProfile(app, ana, at, 'Leo');

    // The invitation sent after the second seat names both children (one sent before it, if the
    // first seat's job ran first, names Mia); its UIDs are per class, not per child.
    const invitations = await vi.waitFor(
      () => {
        const found = mailsTo(smtp, ana.email, /^Invitation: Chess for Kids$/);
        expect(found.length).toBeGreaterThanOrEqual(1);
        expect(invitationOf(found.at(-1)!).events[0].summary).toBe('Chess for Kids (for Leo and Mia)');
        return found;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(invitations.length).toBeLessThanOrEqual(2);
    const latest = invitationOf(invitations.at(-1)!);
    expect(latest.method).toBe('REQUEST');
    expect(latest.events).toHaveLength(2);
    expect(new Set(latest.events.map((e) => e.uid)).size).toBe(2);
    for (const e of latest.events) {
      expect(e.summary).toBe('Chess for Kids (for Leo and Mia)');
      expect(e.description).toContain('For Leo and Mia.');
      expect(e.attendee).toBe(`mailto:${ana.email}`);
    }
    expect(textOf(invitations.at(-1)!)).toContain('(for Leo and Mia)');
    const first = invitationOf(invitations[0]);
    expect(first.events.map((e) => e.uid)).toEqual(latest.events.map((e) => e.uid));

    // The reminders: one per class and offset for the parent, naming both; the educator's names no one.
    await app.database.db.execute(
      sql`update job set run_at = now() where kind = 'courses.class-reminder' and state = 'queued' and key like ${`class-reminder:${classTimeId}:%`}`,
    );
    await app.jobs.runDue();
    const reminders = await notes(ana);
    expect(reminders.map((n) => n.title).sort()).toEqual([
      'In an hour: Chess for Kids, for Leo and Mia',
      'Tomorrow: Chess for Kids, for Leo and Mia',
    ]);
    expect((await notes(educator)).map((n) => n.title).sort()).toEqual([
      'In an hour: Chess for Kids, which you teach',
      'Tomorrow: Chess for Kids, which you teach',
    ]);
    await mailTo(smtp, ana.email, /^Tomorrow: Chess for Kids, for Leo and Mia$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(smtp, ana.email, /^(Tomorrow|In an hour): Chess for Kids/)).toHaveLength(2);

    // Mia drops: no cancellation; an update of the classes, naming Leo, who still attends.
    await famcDropProfileSeat(app, ana, at, mia);
    const [update] = await mailTo(smtp, ana.email, /^Updated invitation: Chess for Kids$/);
    const updated = invitationOf(update);
    expect(updated.method).toBe('REQUEST');
    expect(updated.events.map((e) => e.uid)).toEqual(latest.events.map((e) => e.uid));
    for (const e of updated.events) {
      expect(e.summary).toBe('Chess for Kids (for Leo)');
      expect(e.status).toBe('CONFIRMED');
    }
    expect(textOf(update)).toContain('for Leo, who still attends');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(smtp, ana.email, /^Cancelled: Chess for Kids$/)).toHaveLength(0);

    // Leo drops too: the last seat, the calendar entries are cancelled.
    await famcDropProfileSeat(app, ana, at, leo);
    const [cancel] = await mailTo(smtp, ana.email, /^Cancelled: Chess for Kids$/);
    const cancelled = invitationOf(cancel);
    expect(cancelled.method).toBe('CANCEL');
    expect(cancelled.events.map((e) => [e.uid, e.status])).toEqual(latest.events.map((e) => [e.uid, 'CANCELLED']));
  });

  it('two seats taken in one checkout send one invitation naming both', async () => {
    const educator = await user('Hedy', 'Lamarr');
    await becomeEducator(sendAs(app, educator.cookie));
    const send = sendAs(app, educator.cookie);
    const courseId = await createCourse(send, { title: 'Robots for Kids', priceCents: 0 });
    const sessionId = await createSession(send, courseId);
    await createClassTimes(send, courseId, sessionId, inHours(30));
    await publishCourse(send, courseId);
    const ana = await user('Ana');
    await famcSeatsForLearnerProfiles(app, ana, { courseId, sessionId }, [{ firstName: 'Mia' }, { firstName: 'Leo' }]);
    const [invitation] = await mailTo(smtp, ana.email, /^Invitation: Robots for Kids$/);
    expect(invitationOf(invitation).events.map((e) => e.summary)).toEqual(['Robots for Kids (for Leo and Mia)']);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(smtp, ana.email, /^Invitation: Robots for Kids$/)).toHaveLength(1);
  });
});
