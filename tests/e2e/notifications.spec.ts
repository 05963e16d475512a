import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import {
  ApiClient,
  createEducator,
  createPublishedCourse,
  createVerifiedUser,
  dayFromNow,
  latestEmail,
  logIn,
  outbox,
  signedInClient,
} from './support';
import { classTimeBody } from '../support/test-data';
import { scrollWidth, seriousViolations } from './checks';

/**
 * Notifications in the browser: a free enrolment's notification appears in the list, opens
 * its detail page (and is read then), nobody else can open it, and the settings' table of
 * types x channels turns an email off (checked in the outbox). Each screen passes axe at
 * 1280 and 390 px.
 */

async function freeCourse(api: ApiClient, title: string) {
  return createPublishedCourse(api, {
    course: { title, priceCents: 0 },
    session: { startsOn: dayFromNow(20), endsOn: dayFromNow(50), capacity: 10, minToRun: 1 },
    classTimes: classTimeBody(21),
  });
}

/** axe clean and no sideways scroll at 1280 and 390 px (screenshots with AGORA_SHOTS=1). */
async function checkScreen(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await seriousViolations(page), `axe on ${name} at ${width}px`).toEqual([]);
    await expect.poll(() => scrollWidth(page), { message: `${name} fits ${width}px` }).toBeLessThanOrEqual(width);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-notifications-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a notification appears, opens its detail page, and preferences turn its email off', async ({ page, context, browser }) => {
  const { api: educator } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  const first = await freeCourse(educator, 'Sketching city streets');
  const second = await freeCourse(educator, 'Bookbinding by hand');
  const learner = await createVerifiedUser({ firstName: 'Rosalind', lastName: 'Franklin' });
  const me = await logIn(context, learner);
  const learnerApi = await signedInClient(learner);

  await test.step('the empty list says what will show up', async () => {
    await page.goto('/mailbox/notifications');
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await expect(page.getByText('No notifications yet')).toBeVisible();
    await checkScreen(page, 'empty');
  });

  await test.step('enrolling: the notification appears live (unread) and its email is sent', async () => {
    const enrolled = await learnerApi.post(`/api/courses/${first.courseId}/sessions/${first.sessionId}/enrol`);
    expect(enrolled.status, enrolled.text).toBe(200);
    await latestEmail(learnerApi, learner.email, /You're enrolled in Sketching city streets/);
    // No reload: the open list hears notification.new over the tab's socket.
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect(list.getByRole('link', { name: "Unread: You're enrolled in Sketching city streets" })).toBeVisible();
    await expect(page.getByText('1 unread', { exact: true })).toBeVisible();
    await checkScreen(page, 'list');
  });

  let detailUrl = '';
  await test.step('it opens on its own page, with a link to the course, and is read then', async () => {
    await page.getByRole('link', { name: /You're enrolled in Sketching city streets/ }).click();
    await expect(page).toHaveURL(new RegExp(`/mailbox/${me.id}/[0-9a-f-]{36}$`));
    detailUrl = page.url();
    await expect(page.getByRole('heading', { name: "You're enrolled in Sketching city streets", level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the course' })).toHaveAttribute('href', `/course/${first.courseId}`);
    await checkScreen(page, 'detail');
    await page.getByRole('link', { name: 'All notifications' }).click();
    await expect(page.getByText('You are all caught up.')).toBeVisible();
    await expect(page.getByRole('link', { name: "You're enrolled in Sketching city streets" })).toBeVisible();
  });

  await test.step('someone else opening it sees not-found', async () => {
    const other = await browser.newContext();
    await logIn(other, await createVerifiedUser());
    const theirs = await other.newPage();
    await theirs.goto(detailUrl);
    await expect(theirs.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await other.close();
  });

  await test.step('settings: turning the enrolment email off stops it (the in-app notification stays)', async () => {
    await page.goto('/user/settings');
    const table = page.getByRole('table', { name: 'Notifications' });
    await expect(table).toBeVisible();
    const email = table.getByRole('combobox', { name: 'Enrolment confirmations: email' });
    await expect(email).toHaveValue('instant');
    // Class reminders and calendar invitations: their own row, for learners too (issue 25).
    await expect(
      table.getByRole('combobox', { name: 'Class reminders (24 h and 1 h before) and calendar invitations: email' }),
    ).toHaveValue('instant');
    await email.selectOption('off');
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await page.getByRole('table', { name: 'Notifications' }).scrollIntoViewIfNeeded();
    await checkScreen(page, 'settings');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Enrolment confirmations: email' })).toHaveValue('off');

    const enrolled = await learnerApi.post(`/api/courses/${second.courseId}/sessions/${second.sessionId}/enrol`);
    expect(enrolled.status, enrolled.text).toBe(200);
    await page.goto('/mailbox/notifications');
    await expect(page.getByRole('link', { name: "Unread: You're enrolled in Bookbinding by hand" })).toBeVisible();
    const subjects = (await outbox(learnerApi, learner.email)).map((m) => m.subject);
    expect(subjects).toContain("You're enrolled in Sketching city streets");
    expect(subjects).not.toContain("You're enrolled in Bookbinding by hand");
  });

  await test.step("the email's unsubscribe link works without signing in: a confirmation page, then one click", async () => {
    const mail = await latestEmail(learnerApi, learner.email, /You're enrolled in Sketching city streets/);
    const link = /Stop emails about [^:]+: (\S+)/.exec(mail.text)![1];
    const visitor = await browser.newContext();
    const tab = await visitor.newPage();
    await tab.goto(link);
    await expect(tab.getByRole('heading', { name: 'Stop emails about enrolment confirmations?' })).toBeVisible();
    await checkScreen(tab, 'unsubscribe');
    await tab.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(tab.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await visitor.close();
  });

  await test.step('mark all read, then the unread filter is empty', async () => {
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect(page.getByText('You are all caught up.')).toBeVisible();
    await page.getByRole('button', { name: 'Unread' }).click();
    await expect(page.getByText('No unread notifications')).toBeVisible();
  });
});

test('a new message shows in the notifications live, opens the thread, and is gone once the thread is read', async ({ page, context }) => {
  const sender = await createVerifiedUser({ firstName: 'Hedy', lastName: 'Lamarr' });
  const reader = await createVerifiedUser({ firstName: 'Emmy', lastName: 'Noether' });
  await logIn(context, reader);
  const senderApi = await signedInClient(sender);
  const send = async (body: string) => {
    const res = await senderApi.post(`/api/mailbox/conversations/${reader.id}/messages`, { body, clientId: randomUUID() });
    expect(res.status, res.text).toBe(201);
  };

  await page.goto('/mailbox/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  // Let the socket be ready before the sends (it catches up on connect anyway).
  await page.waitForLoadState('networkidle');
  await send('Are you free on Tuesday?');
  await send('Bring the tuner please');
  // No reload: one entry for the conversation, counting both messages, showing the newest.
  const list = page.getByRole('list', { name: 'Notifications' });
  const entry = list.getByRole('link', { name: 'Unread: 2 new messages from Hedy Lamarr' });
  await expect(entry).toBeVisible();
  await expect(list.getByText('Bring the tuner please')).toBeVisible();
  await checkScreen(page, 'new-message');

  // It opens the conversation itself, which reads it (wait for the read to be stored before leaving the page).
  const read = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().includes(`/api/mailbox/conversations/${sender.id}/read`) && r.ok(),
  );
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/mailbox/${sender.id}$`));
  await expect(page.getByText('Bring the tuner please')).toBeVisible();
  await read;

  // The thread was read: the entry is gone from the list.
  await page.goto('/mailbox/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
});
