import ICAL from 'ical.js';
import { expect, test } from '@playwright/test';
import { scrollWidth, seriousViolations } from './checks';
import {
  ApiClient,
  classesTookPlace,
  createEducator,
  createPublishedCourse,
  createVerifiedUser,
  dayFromNow,
  downloadCertificate,
  latestEmail,
  logIn,
} from './support';

/**
 * Issue 25's "done means", walked as a new learner would, in Chromium: she enrols in a class,
 * receives the calendar invitation and the class reminder, opens the classroom from the
 * reminder, reads the educator's material, replies, is marked present, and downloads her
 * certificate at the end. Each part's rules are in tests/api (classroom, attendance,
 * notifications/class-reminders); this spec proves they make one journey.
 */
test('a learner enrols, gets the invitation and the reminder, uses the classroom, attends and downloads a certificate', async ({
  page,
  context,
}) => {
  const { api: educatorApi } = await createEducator({ firstName: 'Grace', lastName: 'Hopper' });
  const title = `Python for Curious Beginners ${Date.now() % 100000}`;
  // The first class starts in an hour and a little (class times are whole minutes): its one-hour
  // reminder falls due within the test.
  const firstClass = new Date(Math.ceil((Date.now() + 60 * 60_000 + 5_000) / 60_000) * 60_000);
  const { courseId, sessionId } = await createPublishedCourse(educatorApi, {
    course: { title, priceCents: 0 },
    session: { startsOn: dayFromNow(0), endsOn: dayFromNow(30), capacity: 10, timeZone: 'UTC' },
    classTimes: {
      startsAt: firstClass.toISOString(),
      endsAt: new Date(firstClass.getTime() + 60 * 60_000).toISOString(),
      meetingUrl: 'https://meet.example.com/python',
      repeatWeeks: 2,
    },
  });
  expect((await educatorApi.send('PUT', `/api/courses/${courseId}/certificate-rule`, { minPercent: 50 })).status).toBe(200);
  const classroom = `/api/courses/${courseId}/sessions/${sessionId}/classroom`;
  const posted = await educatorApi.send('POST', `${classroom}/posts`, {
    body: '## Week 1 reading\n\nRead **chapter 1** before our first class.',
  });
  expect(posted.status, posted.text).toBe(201);

  const ada = await createVerifiedUser({ firstName: 'Ada', lastName: 'Lovelace' });
  await logIn(context, ada);
  const outbox = new ApiClient();

  await test.step('she enrols from the course page', async () => {
    await page.goto(`/course/${courseId}`);
    await page.getByRole('link', { name: /^Enrol in the session/ }).click();
    await page.getByRole('button', { name: 'Confirm enrolment' }).click();
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible();
  });

  await test.step('she receives a calendar invitation: one event per class, with the join link', async () => {
    const mail = await latestEmail(outbox, ada.email, new RegExp(`^Invitation: ${title}`));
    const invite = mail.icalEvent!;
    expect(invite.method).toBe('REQUEST');
    const calendar = new ICAL.Component(ICAL.parse(invite.content));
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(2);
    expect(events[0].summary).toContain(title);
    expect(events[0].startDate.toJSDate().getTime()).toBe(firstClass.getTime());
    expect(invite.content).toContain('https://meet.example.com/python');
  });

  await test.step('an hour before the class, the reminder: in the app and by email; it opens the classroom', async () => {
    // Due within about a minute of the class times' creation (whole minutes), taken by the job queue.
    await expect
      .poll(async () => (await outbox.get(`/api/dev/outbox?to=${encodeURIComponent(ada.email)}`)).text, {
        message: 'the one-hour reminder by email',
        timeout: 120_000,
        intervals: [2_000],
      })
      .toMatch(/In an hour: /);
    await page.goto('/mailbox/notifications');
    const reminder = page.getByRole('link', { name: new RegExp(`In an hour: ${title}`) });
    await expect(reminder).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await reminder.click();
    await expect(page.getByRole('heading', { level: 1, name: `In an hour: ${title}` })).toBeVisible();
    await expect(page.getByText(/Join online: https:\/\/meet\.example\.com\/python/)).toBeVisible();
    await page.getByRole('link', { name: 'Open the classroom' }).click();
    await expect(page).toHaveURL(new RegExp(`/course/${courseId}/session/${sessionId}/classroom$`));
  });

  await test.step("she reads the educator's material and replies", async () => {
    await expect(page.getByRole('heading', { name: 'Week 1 reading' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Join the class/ })).toHaveAttribute('href', 'https://meet.example.com/python');
    await page.getByLabel('Reply').fill('Read it, see you in class!');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByText('Read it, see you in class!')).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test.step('the classes take place; the educator marks her present', async () => {
    await classesTookPlace(sessionId);
    const sheet = await educatorApi.send('GET', `/api/courses/${courseId}/sessions/${sessionId}/attendance`);
    expect(sheet.status, sheet.text).toBe(200);
    const { classTimes, learners } = sheet.json<{ classTimes: { id: string }[]; learners: { id: string; name: string }[] }>();
    const learner = learners.find((l) => l.name === 'Ada Lovelace')!;
    for (const t of classTimes) {
      const marked = await educatorApi.send(
        'PUT',
        `/api/courses/${courseId}/sessions/${sessionId}/class-times/${t.id}/attendance/${learner.id}`,
        {
          mark: 'present',
        },
      );
      expect(marked.status, marked.text).toBe(200);
    }
  });

  await test.step('she downloads her certificate from the dashboard; anyone can verify it', async () => {
    await page.goto('/dashboard');
    const panel = page.getByRole('region', { name: 'Attendance and certificates' });
    await expect(panel.getByText('Attended 2 of 2 classes')).toBeVisible();
    const lookup = await downloadCertificate(page, panel.getByRole('link', { name: /Download your certificate/ }));
    expect(lookup.json()).toMatchObject({ status: 'valid', learnerName: 'Ada Lovelace', courseTitle: title });
  });
});
