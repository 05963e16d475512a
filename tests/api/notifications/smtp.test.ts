import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { becomeEducator, createClassTimes, createCourse, createSession, publishCourse } from '../../support/test-data.js';
import { call, pathOf, post, sendAs } from '../../support/http.js';
import { classTimeBody } from '../../support/courses.js';
import { duringHeldMail, startSmtpServer, type LocalSmtpServer } from '../../support/smtp.js';
import { mailTo, verifiedUser } from '../../support/mail.js';

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

/** A verified, signed-in user (the verification link arrives over SMTP). */
const user = (firstName: string) => verifiedUser(app, smtp, { firstName });

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

    const [{ headers, parts }] = await mailTo(smtp, learner.email, /You're enrolled in Letterpress basics/);
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
