import { expect, test, type Page } from '@playwright/test';
import {
  ApiClient,
  createEducator,
  createPublishedCourse,
  createVerifiedUser,
  dayFromNow,
  latestEmail,
  linkIn,
  logIn,
  openAvatarMenu,
  signedInClient,
} from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';

/**
 * Family accounts (issue 26 part 3, ADR 0074): a parent keeps their children as learners in
 * settings (no account of their own): adds two, edits one, removes one; an educator sets a
 * course's age range and the course page says it. axe at 1280 and 390 px.
 */

const learners = (page: Page) => page.getByRole('list', { name: 'Your learners' }).getByRole('listitem');
const shot = async (page: Page, name: string) => {
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-learners-${name}.png`, fullPage: false });
};

for (const width of [1280, 390]) {
  test(`at ${width} px a parent adds two learners, edits one, removes one; axe finds nothing serious`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await logIn(page.context(), await createVerifiedUser({ firstName: 'Paula' }));
    await page.goto('/dashboard');

    await test.step('the account menu leads to the Learners section, which says what it is for', async () => {
      const menu = await openAvatarMenu(page);
      await menu.getByRole('menuitem', { name: 'Learners' }).click();
      await expect(page).toHaveURL(/\/user\/settings#learners$/);
      const card = page.getByRole('group', { name: 'Learners' });
      await expect(card.getByRole('heading', { name: 'Learners', level: 2 })).toBeInViewport();
      await expect(card.getByText('Enrol your children without giving them an account.')).toBeVisible();
      await expect(card.getByText(/No learners yet/)).toBeVisible();
      await shot(page, `empty-${width}`);
      expect(await seriousViolations(page)).toEqual([]);
    });

    const card = page.getByRole('group', { name: 'Learners' });
    await test.step('adds Ada (8) and Ben (a range, typed backwards first)', async () => {
      await card.getByRole('button', { name: 'Add a learner' }).click();
      await card.getByLabel('First name').fill('Ada');
      await card.getByLabel('Age').fill('8');
      await card.getByLabel('Notes for the educator (optional)').fill('Loves maps; allergic to peanuts.');
      await card.getByRole('button', { name: 'Add learner' }).click();
      await expect(card.getByRole('status')).toHaveText('Ada was added to your learners.');
      await expect(learners(page)).toHaveCount(1);

      await card.getByRole('button', { name: 'Add a learner' }).click();
      await card.getByLabel('First name').fill('Ben');
      await card.getByLabel('Age').fill('10-8');
      await card.getByRole('button', { name: 'Add learner' }).click();
      await expect(card.getByText('Put the younger age first: 8-10')).toBeVisible();
      await expect(card.getByLabel('Age')).toHaveAttribute('aria-invalid', 'true');
      await shot(page, `invalid-${width}`);
      expect(await seriousViolations(page)).toEqual([]);
      await card.getByLabel('Age').fill('8-10');
      await card.getByRole('button', { name: 'Add learner' }).click();
      await expect(learners(page)).toHaveText([/Ada · Age 8\s*Loves maps; allergic to peanuts\./, /Ben · Ages 8-10/]);
    });

    await test.step('edits Ben: now 9', async () => {
      await card.getByRole('button', { name: 'Edit Ben' }).click();
      await expect(card.getByLabel('Age')).toHaveValue('8-10');
      await card.getByLabel('Age').fill('9');
      await card.getByRole('button', { name: 'Save' }).click();
      await expect(card.getByRole('status')).toHaveText('Ben was saved.');
      await expect(learners(page).nth(1)).toHaveText(/Ben · Age 9/);
    });

    await test.step('removes Ada after confirming', async () => {
      await card.getByRole('button', { name: 'Remove Ada' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove Ada?' });
      await expect(dialog).toBeVisible();
      await shot(page, `confirm-${width}`);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByRole('status')).toHaveText('Ada was removed from your learners.');
      await expect(learners(page)).toHaveText([/Ben · Age 9/]);
      await shot(page, `list-${width}`);
      expect(await seriousViolations(page)).toEqual([]);
      if (width === 390) await fitsNarrowScreen(page, 'learners', 'settings');
    });

    // What the page shows is what the account keeps.
    await page.reload();
    await expect(learners(page)).toHaveText([/Ben · Age 9/]);
  });
}

test('an educator sets an age range; the course page and the catalogue say "Ages 8-12"', async ({ page }) => {
  const { api, user } = await createEducator({ firstName: 'Grace' });
  const title = `Junior robotics ${Date.now()}`;
  const start = new Date(`${dayFromNow(10)}T16:00:00Z`);
  const { courseId } = await createPublishedCourse(api, {
    course: { title, priceCents: 0 },
    session: { startsOn: dayFromNow(10), endsOn: dayFromNow(40), capacity: 8, timeZone: 'Europe/London' },
    classTimes: { startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 3600_000).toISOString() },
  });
  await logIn(page.context(), user);
  // The course page is read (and cached) before the edit: the edit must show.
  await page.goto(`/course/${courseId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Ages 8-12')).toHaveCount(0);

  await page.goto(`/course/${courseId}/edit`);
  const ages = page.getByRole('group', { name: 'Ages (optional)' });
  await ages.getByLabel('From').fill('12');
  await ages.getByLabel('To').fill('8');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(ages.getByText('The oldest age must be at least the youngest (12)')).toBeVisible();
  await ages.getByLabel('From').fill('8');
  await ages.getByLabel('To').fill('12');
  await expect(ages.getByText('The oldest age must be at least the youngest (12)')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved')).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    if (process.env.AGORA_SHOTS) await ages.screenshot({ path: `/tmp/agora-learners-editor-${width}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  }

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/course/${courseId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: /^Ages 8-12$/ })).toBeVisible();
  await expect(page.locator('dd', { hasText: 'Ages 8-12' }), '"Who it\'s for" says it too').toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `course-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
  }

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/course/search?q=${encodeURIComponent(title)}`);
  const result = page.getByRole('article').filter({ hasText: title });
  await expect(result.getByText('Ages 8-12')).toBeVisible();
  await shot(page, 'search-1280');
  // The catalogue by a learner's age: 15 is outside 8-12, 10 inside (ADR 0081).
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Learner’s age').selectOption('15');
  await expect(page).toHaveURL(/[?&]age=15(&|$)/);
  await expect(result).toHaveCount(0);
  await filters.getByLabel('Learner’s age').selectOption('10');
  await expect(page).toHaveURL(/[?&]age=10(&|$)/);
  await expect(result.getByText('Ages 8-12')).toBeVisible();
  await shot(page, 'search-age-1280');
  expect(await seriousViolations(page)).toEqual([]);
});

test('a learner invited to an account of their own signs up through the emailed link and finds their class', async ({ browser }) => {
  const { api: educatorApi } = await createEducator({ firstName: 'Grace' });
  const start = new Date(`${dayFromNow(12)}T16:00:00Z`);
  const title = `Teen debate club ${Date.now()}`;
  const { courseId, sessionId } = await createPublishedCourse(educatorApi, {
    course: { title, priceCents: 0 },
    session: { startsOn: dayFromNow(12), endsOn: dayFromNow(40), capacity: 8, timeZone: 'Europe/London' },
    classTimes: { startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 3600_000).toISOString() },
  });
  const parent = await createVerifiedUser({ firstName: 'Paula', lastName: 'Garcia' });
  const parentApi = await signedInClient(parent);
  const added = await parentApi.post('/api/me/learners', { firstName: 'Maya', age: '15' });
  expect(added.status, added.text).toBe(201);
  const mayaProfile = added.json<{ learner: { id: string } }>().learner.id;
  // Maya's seat, taken as her account holder takes one.
  const enrolled = await parentApi.post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`, { learnerIds: [mayaProfile] });
  expect(enrolled.status, enrolled.text).toBe(200);

  const parentContext = await browser.newContext();
  const page = await parentContext.newPage();
  await logIn(parentContext, parent);
  await page.goto('/user/settings#learners');
  const card = page.getByRole('group', { name: 'Learners' });
  await card.getByRole('button', { name: 'Own account for Maya' }).click();
  const email = `maya.${Date.now()}@example.com`;
  await card.getByLabel('Maya’s email').fill(email);
  await card.getByRole('button', { name: 'Send invitation' }).click();
  await expect(card.getByRole('status')).toContainText(`We sent an invitation to ${email}.`);
  // The invitation waits in settings; sent again, the newest link is the one that works.
  const waiting = learners(page).filter({ hasText: 'Maya' });
  await expect(waiting.getByText(`Invitation sent to ${email}; the link works until`)).toBeVisible();
  const first = await latestEmail(new ApiClient(), email, /invites you to your own Agora account/);
  await waiting.getByRole('button', { name: 'Send again to Maya' }).click();
  await expect
    .poll(async () => (await latestEmail(new ApiClient(), email, /invites you to your own Agora account/)).id, { timeout: 30_000 })
    .not.toBe(first.id);
  await parentContext.close();

  const learnerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const learner = await learnerContext.newPage();
  const mail = await latestEmail(new ApiClient(), email, /invites you to your own Agora account/);
  await learner.goto(linkIn(mail));
  await expect(learner.getByRole('heading', { name: 'Welcome, Maya', level: 1 })).toBeVisible();
  await expect(learner.getByText('Paula Garcia invited you to your own account.')).toBeVisible();
  await expect(learner.getByLabel('Email')).toHaveValue(email);
  await learner.getByLabel('Last name').fill('Garcia');
  await learner.getByLabel('Password').fill('Periodic-Table-1869');
  await learner.getByLabel('Birthdate').fill('2010-05-01');
  await shot(learner, 'invite-signup-390');
  expect(await seriousViolations(learner)).toEqual([]);
  await learner.getByRole('button', { name: 'Create my account' }).click();
  await expect(learner).toHaveURL(/\/login\?reason=learner-invite$/);
  await expect(learner.getByText('Your account is ready, with your classes.')).toBeVisible();
  await learner.getByLabel('Email').fill(email);
  await learner.getByLabel('Password').fill('Periodic-Table-1869');
  await learner.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(learner).not.toHaveURL(/\/login/);
  await learner.goto(`/course/${courseId}`);
  await expect(learner.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(learner.getByRole('link', { name: /^Classroom/ }).first()).toBeVisible();
  await learnerContext.close();
});

test('a parent sees the invitation waiting and cancels it: its link no longer works (390 px, axe)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const parent = await createVerifiedUser({ firstName: 'Paula' });
  const parentApi = await signedInClient(parent);
  const added = await parentApi.post('/api/me/learners', { firstName: 'Leo', age: '14' });
  expect(added.status, added.text).toBe(201);
  const email = `leo.${Date.now()}@example.com`;
  const sent = await parentApi.post(`/api/me/learners/${added.json<{ learner: { id: string } }>().learner.id}/invite`, { email });
  expect(sent.status, sent.text).toBe(200);
  const link = new URL(linkIn(await latestEmail(new ApiClient(), email, /invites you to your own Agora account/)));
  const token = link.searchParams.get('invite')!;

  await logIn(page.context(), parent);
  await page.goto('/user/settings#learners');
  const leo = learners(page).filter({ hasText: 'Leo' });
  await expect(leo.getByText(`Invitation sent to ${email}; the link works until`)).toBeVisible();
  await fitsNarrowScreen(page, 'learners', 'invite-waiting');
  expect(await seriousViolations(page)).toEqual([]);
  await leo.getByRole('button', { name: 'Cancel invitation for Leo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Leo’s invitation?' });
  await expect(dialog).toContainText(`The link sent to ${email} stops working.`);
  await dialog.getByRole('button', { name: 'Cancel invitation' }).click();
  await expect(page.getByRole('group', { name: 'Learners' }).getByRole('status')).toHaveText(
    `The invitation to ${email} was cancelled: its link no longer works.`,
  );
  await expect(leo.getByText('Invitation sent to')).toHaveCount(0);
  expect((await new ApiClient().get(`/api/accounts/learner-invite?token=${encodeURIComponent(token)}`)).status).toBe(404);
  await page.goto(`/signup?invite=${encodeURIComponent(token)}`);
  await expect(page.getByText(/invalid, used or expired/)).toBeVisible();
});
