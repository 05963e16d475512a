import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { becomeEducator, createClassTimes, createCourse, createSession, publishCourse } from '../../support/test-data.js';
import { followLink, newUser, signIn, signUp } from '../../support/factories.js';
import { call, pathOf, post, sendAs } from '../../support/http.js';
import { classTimeBody } from '../../support/courses.js';
import { duringHeldMail, parseMime, startSmtpServer, type LocalSmtpServer } from '../../support/smtp.js';

/**
 * Notification emails over real SMTP (a local server): the request that caused one answers
 * while the mail server holds its answers (so it did not wait for it), and the message
 * carries RFC 8058's headers.
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

async function receivedMatching(to: string, subject: RegExp) {
  return vi.waitFor(
    () => {
      const found = smtp.received
        .filter((m) => m.to.includes(to))
        .map((m) => parseMime(m.raw))
        .find((m) => subject.test(m.headers.subject ?? ''));
      expect(found, `no mail "${subject}" for ${to}`).toBeDefined();
      return found!;
    },
    { timeout: 20_000, interval: 100 },
  );
}

/** A verified, signed-in user (the verification link arrives over SMTP). */
async function user(firstName: string) {
  const u = newUser({ firstName });
  expect((await signUp(app, u)).statusCode).toBe(201);
  const { parts } = await receivedMatching(u.email, /verify/i);
  const link = /https?:\/\/\S+/.exec(parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body)![0];
  expect((await followLink(app, link)).statusCode).toBe(302);
  return { ...u, cookie: await signIn(app, u.email, u.password) };
}

describe('notification email over SMTP', () => {
  it('is sent by a job (the enrolment answers before the mail server does), with List-Unsubscribe and List-Unsubscribe-Post', async () => {
    const educator = await user('Grace');
    const send = sendAs(app, educator.cookie);
    await becomeEducator(send);
    const courseId = await createCourse(send, { title: 'Letterpress basics', priceCents: 0 });
    const sessionId = await createSession(send, courseId);
    await createClassTimes(send, courseId, sessionId, classTimeBody(31));
    await publishCourse(send, courseId);
    const learner = await user('Ada');

    const { result: res, answeredWhileHeld } = await duringHeldMail(smtp, () =>
      post(app, `/api/courses/${courseId}/sessions/${sessionId}/enrol`, undefined, { cookie: learner.cookie }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(answeredWhileHeld, 'the request does not wait for SMTP').toBe(true);

    const { headers, parts } = await receivedMatching(learner.email, /You're enrolled in Letterpress basics/);
    expect(headers['list-unsubscribe']).toMatch(/^<http[^>]+\/api\/notifications\/unsubscribe\?token=[^>]+>$/);
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body).toContain(
      'Stop emails about enrolment confirmations',
    );

    // The mail client's one-click POST (no cookie, a form body) turns that email off.
    const link = /<([^>]+)>/.exec(headers['list-unsubscribe'])![1];
    const oneClick = await call(app, 'POST', pathOf(link), 'List-Unsubscribe=One-Click', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
  });
});
