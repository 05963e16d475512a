import { expect, test, type Page } from '@playwright/test';
import { seriousViolations, scrollWidth } from './checks';
import { createEducator, createPublishedCourse, createVerifiedUser, dayFromNow, logIn, signedInClient } from './support';

/**
 * Family accounts' seats in the browser (issue 26 part 3, ADR 0074): a parent with learner
 * profiles enrols two of them in a free session from "Who is this for?" (a child outside the
 * course's ages cannot be chosen, and says why), sees "For Mia" / "For Leo" on the dashboard,
 * the educator's roster names both children with the parent as contact, and the parent drops
 * one child alone. At 390 px with axe. The rules are tests/api/courses/family-seats.test.ts
 * and family-roster-dashboard.test.ts.
 */

const shot = async (p: Page, name: string) => {
  if (process.env.AGORA_SHOTS) await p.screenshot({ path: `/tmp/agora-family-enrol-${name}.png`, fullPage: true });
};

async function fits(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
}

test('a parent enrols two children in a free session, sees whom each seat is for, and drops one of them', async ({ browser }) => {
  const { api: educatorApi, user: educator } = await createEducator({ firstName: 'Grace', lastName: 'Hopper' });
  const title = `Robot building ${Date.now() % 100000}`;
  const { courseId } = await createPublishedCourse(educatorApi, {
    course: { title, minAge: 8, maxAge: 12 },
    session: { startsOn: dayFromNow(10), endsOn: dayFromNow(40), capacity: 6 },
    classTimes: { startsAt: `${dayFromNow(11)}T16:00:00.000Z`, endsAt: `${dayFromNow(11)}T17:00:00.000Z` },
  });
  const parent = await createVerifiedUser({ firstName: 'Ana', lastName: 'Ruiz' });
  const parentApi = await signedInClient(parent);
  for (const [firstName, age, notes] of [
    ['Mia', '9', 'Left-handed'],
    ['Leo', '11', null],
    ['Tom', '6', null],
  ] as const) {
    const added = await parentApi.post('/api/me/learners', { firstName, age, ...(notes ? { notes } : {}) });
    expect(added.status, added.text).toBe(201);
  }

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  try {
    await logIn(phone, parent);

    await test.step('"Who is this for?": Mia and Leo chosen, Tom outside the ages says why', async () => {
      await page.goto(`/course/${courseId}`);
      await page
        .getByRole('link', { name: /^Enrol in the session/ })
        .first()
        .click();
      await expect(page.getByRole('heading', { name: 'Confirm your enrolment' })).toBeVisible();
      const who = page.getByRole('group', { name: 'Who is this for?' });
      await expect(who.getByRole('checkbox', { name: /^You/ })).toBeEnabled();
      await expect(who.getByRole('checkbox', { name: /^Tom/ })).toBeDisabled();
      await expect(who.getByText('age 6 · this course is for ages 8-12')).toBeVisible();
      await expect(page.getByText('6 seats left in this session.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Confirm enrolment' })).toBeDisabled();
      await who.getByRole('checkbox', { name: /^Mia/ }).check();
      await who.getByRole('checkbox', { name: /^Leo/ }).check();
      await fits(page);
      await shot(page, 'who-for');
      await page.getByRole('button', { name: 'Confirm enrolment' }).click();
      await expect(page.getByRole('heading', { name: 'Enrolment confirmed' })).toBeVisible();
      await expect(page.getByText('Mia is enrolled; Leo is enrolled.')).toBeVisible();
    });

    await test.step('the course page and the dashboard say whom each seat is for', async () => {
      await page.goto(`/course/${courseId}`);
      const seats = page.getByLabel('Your learners in this session').first();
      await expect(seats.getByText('Mia: enrolled')).toBeVisible();
      await expect(seats.getByText('Leo: enrolled')).toBeVisible();
      await expect(seats.getByRole('link', { name: /^Enrol yourself too/ })).toBeVisible();
      await fits(page);
      await shot(page, 'course');
      await page.goto('/dashboard');
      const courses = page.getByRole('list', { name: 'Your courses' });
      await expect(courses.getByRole('listitem').filter({ hasText: 'For Mia' })).toContainText(title);
      await expect(courses.getByRole('listitem').filter({ hasText: 'For Leo' })).toContainText(title);
      await expect(page.getByText('For Mia and Leo').first()).toBeVisible();
      await fits(page);
      await shot(page, 'dashboard');
    });

    await test.step("the educator's roster names both children (age, notes) with the parent as contact", async () => {
      const desk = await browser.newContext();
      try {
        await logIn(desk, educator);
        const roster = await desk.newPage();
        await roster.goto(`/course/${courseId}/enrollment`);
        const table = roster.getByRole('table');
        const mia = table.getByRole('row').filter({ hasText: 'Mia' });
        await expect(mia).toContainText('(age 9)');
        await expect(mia).toContainText('Contact: Ana Ruiz');
        await expect(mia).toContainText('Notes: Left-handed');
        await expect(mia.getByRole('link', { name: 'Message Ana Ruiz' })).toBeVisible();
        const leo = table.getByRole('row').filter({ hasText: 'Leo' });
        await expect(leo).toContainText('(age 11)');
        await expect(leo).toContainText('Contact: Ana Ruiz');
        await expect(table.getByRole('row').filter({ hasText: 'Tom' })).toHaveCount(0);
        expect(await seriousViolations(roster)).toEqual([]);
        await shot(roster, 'roster');
      } finally {
        await desk.close();
      }
    });

    await test.step('the parent drops Leo alone from the dashboard; Mia keeps her seat', async () => {
      await page.goto('/dashboard');
      await page.getByRole('link', { name: `Drop Leo from ${title}` }).click();
      await expect(page.getByRole('heading', { name: 'Drop Leo from this session?' })).toBeVisible();
      await fits(page);
      await page.getByRole('button', { name: 'Drop Leo' }).click();
      await expect(page.getByRole('heading', { name: 'Leo has left this session' })).toBeVisible();
      await page.goto('/dashboard');
      const courses = page.getByRole('list', { name: 'Your courses' });
      await expect(courses.getByText('For Mia')).toBeVisible();
      await expect(courses.getByText('For Leo')).toHaveCount(0);
      await page.goto(`/course/${courseId}`);
      const seats = page.getByLabel('Your learners in this session').first();
      await expect(seats.getByText('Mia: enrolled')).toBeVisible();
      await expect(seats.getByRole('link', { name: /^Enrol Leo and yourself too/ })).toBeVisible();
      await shot(page, 'after-drop');
    });
  } finally {
    await phone.close();
  }
});
