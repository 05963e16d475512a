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
  openAvatarMenu,
  signedInClient,
} from './support';
import { seriousViolations } from './checks';

/**
 * The frictions a new learner and a new educator hit (issue 14), each walked as a person
 * would: the screens say what the rules are, and nothing on the way logs a console error.
 */
test.use({ timezoneId: 'Europe/London' });

/** Console errors and uncaught page errors, collected for the whole test. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('log-in lands an educator on their dashboard (and keeps ?next=); "Continue with Google" shows because Google is set up here', async ({
  page,
}) => {
  const { user } = await createEducator({ firstName: 'Grace', lastName: 'Teacher' });
  const version = await new ApiClient().get('/api/version');
  expect(version.json<{ googleLogin: boolean }>().googleLogin).toBe(true);

  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/educator\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Educator dashboard' })).toBeVisible();

  await page.context().clearCookies();
  await page.goto('/login?next=%2Fcourse%2Fsearch');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/course\/search$/);
});

test('the not-found page: in the app layout for a signed-in user, in the landing layout for a visitor', async ({ page, context }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  await logIn(context, await createVerifiedUser());
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeAttached();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('saving the profile, then signing out, logs no console error; an old "saved" message goes once the form changes', async ({
  page,
  context,
}) => {
  const errors = consoleErrors(page);
  await logIn(context, await createVerifiedUser());
  await page.goto('/user/settings');
  await page.getByLabel('City').fill('Leeds');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Your profile has been saved' });
  await expect(saved).toBeVisible();
  // A later action: the old message does not stay on screen.
  await page.getByLabel('City').fill('York');
  await expect(saved).toBeHidden();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(saved).toBeVisible();

  const menu = await openAvatarMenu(page);
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Log in to Agora' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('reviews: an enrolled learner is told from when they can review (after their first class)', async ({ page, context }) => {
  const { api } = await createEducator();
  const { courseId, sessionId } = await createPublishedCourse(api, {
    course: { title: `Pottery evenings ${Date.now()}` },
    session: { startsOn: dayFromNow(4), endsOn: dayFromNow(30), timeZone: 'Europe/London' },
    classTimes: {
      startsAt: `${dayFromNow(4)}T18:00:00.000Z`,
      endsAt: `${dayFromNow(4)}T19:30:00.000Z`,
      meetingUrl: 'https://meet.example.com/clay',
    },
  });
  const learner = await createVerifiedUser();
  const enrolled = await (await signedInClient(learner)).post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`);
  expect(enrolled.status, enrolled.text).toBe(200);
  await logIn(context, learner);
  await page.goto(`/course/${courseId}`);
  await expect(page.getByText(/^You can review this course after your first class: from /)).toBeVisible();
  await page.goto(`/course/${courseId}/review`);
  await expect(page.getByText('You can review this course after your first class')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish review' })).toHaveCount(0);
});

test('weekly class times default to the session dates, and extending the session is asked first', async ({ page, context }) => {
  const { api, user } = await createEducator();
  const courseId = (
    await api.post('/api/courses', {
      title: `Life drawing ${Date.now()}`,
      summary: 'Draw from a model in three relaxed evenings.',
      description: 'Charcoal and paper provided.',
      category: 'arts',
      level: 'beginner',
      language: 'English',
      format: 'online',
      priceCents: 0,
      currency: 'usd',
      refundPolicy: 'moderate',
    })
  ).json<{ id: string }>().id;
  // A three-week session: from the first class to its last day, three weekly classes fit.
  const session = await api.post(`/api/courses/${courseId}/sessions`, {
    startsOn: dayFromNow(7),
    endsOn: dayFromNow(21),
    capacity: 8,
    minToRun: 1,
    timeZone: 'Europe/London',
  });
  expect(session.status, session.text).toBe(201);
  const sessionId = session.json<{ id: string }>().id;
  await logIn(context, user);

  await page.goto(`/course/${courseId}/session/${sessionId}/new-class-time`);
  await page.getByLabel('Date').fill(dayFromNow(7));
  await page.getByLabel('Repeat weekly').check();
  await expect(page.getByLabel('Number of weeks')).toHaveValue('3');
  await expect(page.getByText(`The session ends on`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Class times to add' }).getByRole('listitem')).toHaveCount(3);

  // Five weeks would go past the session's end: asked first, and "Keep its dates" saves nothing.
  await page.getByLabel('Number of weeks').fill('5');
  await page.getByRole('button', { name: 'Add 5 class times' }).click();
  const dialog = page.getByRole('dialog', { name: 'Extend the session?' });
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-frictions-extend.png' });
  await dialog.getByRole('button', { name: 'Keep its dates' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/new-class-time$/);

  await page.getByRole('button', { name: 'Add 5 class times' }).click();
  await page
    .getByRole('dialog', { name: 'Extend the session?' })
    .getByRole('button', { name: /^Extend to / })
    .click();
  await expect(page).toHaveURL(new RegExp(`/course/${courseId}/edit$`));
  await expect(page.getByRole('status').filter({ hasText: '5 class times added' })).toBeVisible();
  // One publish button on the editor.
  await expect(page.getByRole('button', { name: /publish/i })).toHaveCount(1);
});

test('the time-zone field is a combobox: own zone first, friendly names, keyboard only', async ({ page, context }) => {
  const { api, user } = await createEducator();
  const courseId = (
    await api.post('/api/courses', {
      title: `Choir ${Date.now()}`,
      summary: 'Sing together, every week, online.',
      description: 'No experience needed.',
      category: 'music',
      level: 'beginner',
      language: 'English',
      format: 'online',
      priceCents: 0,
      currency: 'usd',
      refundPolicy: 'moderate',
    })
  ).json<{ id: string }>().id;
  await logIn(context, user);
  await page.goto(`/course/${courseId}/session/new`);
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue(/^London \(GMT\+[01]\)$/);
  await zone.focus();
  await page.keyboard.press('ArrowDown');
  await expect(zone).toHaveAttribute('aria-expanded', 'true');
  const first = page.getByRole('listbox', { name: 'Time zone' }).getByRole('option').first();
  await expect(first).toContainText('Your time zone');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-frictions-timezone.png' });
  await page.keyboard.press('Escape');
  await expect(zone).toHaveAttribute('aria-expanded', 'false');

  await zone.fill('tokyo');
  await expect(page.getByRole('option', { name: /^Tokyo \(GMT\+9\)/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(zone).toHaveValue('Tokyo (GMT+9)');
  await zone.fill('gmt-3 sao');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(zone).toHaveValue(/^Sao Paulo \(GMT-3\)$/);

  await page.getByLabel('Start date').fill(dayFromNow(10));
  await page.getByLabel('End date').fill(dayFromNow(40));
  await page.getByRole('button', { name: 'Add session' }).click();
  await expect(page).toHaveURL(/\/new-class-time$/);
  await expect(page.getByText('times in America/Sao_Paulo')).toBeVisible();
});

test('settings: change the password, change the email (confirmed at the new address), delete the account', async ({ page, context }) => {
  const errors = consoleErrors(page);
  const user = await createVerifiedUser();
  // A conversation the account leaves behind: its messages lose their text, the friend keeps the thread.
  const friend = await createVerifiedUser({ firstName: 'Fran' });
  const userApi = await signedInClient(user);
  const friendApi = await signedInClient(friend);
  expect(
    (await userApi.post(`/api/mailbox/conversations/${friend.id}/messages`, { body: 'My secret plans', clientId: randomUUID() })).status,
  ).toBe(201);
  expect(
    (await friendApi.post(`/api/mailbox/conversations/${user.id}/messages`, { body: 'Tell me more', clientId: randomUUID() })).status,
  ).toBe(201);
  await logIn(context, user);
  await page.goto('/user/settings');

  await test.step('password', async () => {
    const card = page.getByRole('region', { name: 'Password' });
    await card.getByLabel('Current password').fill('Not-my-password-1');
    await card.getByLabel('New password').fill('Difference-Engine-1822');
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByText('Not your current password')).toBeVisible();
    await card.getByLabel('Current password').fill(user.password);
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Your password has been changed' })).toBeVisible();
  });

  const newEmail = `moved-${Date.now()}@example.com`;
  await test.step('email: nothing changes until the link is opened', async () => {
    const card = page.getByRole('region', { name: 'Email address' });
    await card.getByLabel('New email address').fill(newEmail);
    await card.getByLabel('Current password').fill('Difference-Engine-1822');
    await card.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(card.getByText(`We sent a link to ${newEmail}`)).toBeVisible();
    await expect(card).toContainText(`You log in with ${user.email}`);
    const link = /https?:\/\/\S+email-change\/confirm\?token=[\w-]+/.exec(
      (await latestEmail(new ApiClient(), newEmail, /Confirm your new email/)).text,
    )![0];
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Your email address is changed' })).toBeVisible();
    await latestEmail(new ApiClient(), user.email, /email address was changed/);
    await page.getByRole('link', { name: 'Back to settings' }).click();
    await expect(page.getByRole('region', { name: 'Email address' })).toContainText(`You log in with ${newEmail}`);
  });

  await test.step('delete: what is erased and what is kept is said; then the account is gone', async () => {
    const card = page.getByRole('region', { name: 'Delete your account' });
    await expect(card).toContainText('Erased:');
    await expect(card).toContainText('Kept:');
    await expect(card).toContainText('payments and tax law');
    await expect(card).toContainText('the text of every message you sent is removed');
    await expect(card).toContainText('A club you own goes to its longest-standing organiser');
    await card.getByRole('button', { name: 'Delete my account…' }).click();
    if (process.env.AGORA_SHOTS) {
      await page.screenshot({ path: '/tmp/agora-frictions-settings-1280.png', fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: '/tmp/agora-frictions-settings-390.png', fullPage: true });
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    await card.getByLabel('Type your email to confirm').fill(newEmail);
    await card.getByLabel('Current password').fill('Difference-Engine-1822');
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Delete my account for good' }).click();
    await expect(page).toHaveURL(/\/$/);
    const login = await new ApiClient().post('/api/accounts/sign-in', { email: newEmail, password: 'Difference-Engine-1822' });
    expect(login.status).toBe(401);
  });

  await test.step("the friend's mailbox: the thread stays, the deleted user's message shows as removed", async () => {
    await logIn(context, friend);
    await page.goto(`/mailbox/${user.id}`);
    await expect(page.getByText('Tell me more')).toBeVisible();
    await expect(page.getByText('Message removed: its sender deleted their account')).toBeVisible();
    await expect(page.getByText('My secret plans')).toHaveCount(0);
    await expect(page.getByText('Deleted user').first()).toBeVisible();
  });
  // The refused wrong password is a 400 the browser logs as a failed resource; nothing else.
  expect(errors.filter((e) => !/^Failed to load resource/.test(e))).toEqual([]);
});

test('settings: the user chooses their own time zone (the daily digest follows it); it is kept', async ({ page, context }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  await page.goto('/user/settings');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  // Filled from the browser the first time (this test's browser is in London).
  await expect(zone).toHaveValue(/^London \(GMT\+[01]\)$/);
  await zone.fill('auckland');
  await page.getByRole('option', { name: /^Auckland \(GMT\+1[23]\)/ }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Your profile has been saved')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(/^Auckland \(GMT\+1[23]\)$/);
  const me = await page.request.get('/api/me');
  expect((await me.json()).timeZone).toBe('Pacific/Auckland');
});
