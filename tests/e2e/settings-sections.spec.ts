import { expect, test, type Page } from '@playwright/test';
import { createClub } from '../support/club-data';
import { seriousViolations } from './checks';
import { createEducator, createVerifiedUser, logIn, signedInClient } from './support';

/**
 * Issue 23 item 3: the settings have sections with their own address and a side navigation
 * (a bar under the header when narrow) to jump between them; a link opens one; back returns
 * to the one before. The notification table lists only the types that concern the person.
 */

const SECTIONS = ['Profile', 'Learners', 'Payments', 'Notifications', 'Sign-in & security', 'Email & account', 'Blocked people'];
const EDUCATOR_ROWS = ['A learner enrolled in your course', 'New reviews of your courses'];
const ORGANISER_ROWS = ['Requests to join a club you organise'];

const nav = (page: Page) => page.getByRole('navigation', { name: 'Settings sections' });
const notificationRows = (page: Page) => page.getByRole('table', { name: 'Notifications' }).getByRole('rowheader');

/** The element's top is below the sticky header and section bar, and on screen. */
async function landedOn(page: Page, heading: ReturnType<Page['getByRole']>) {
  await expect(heading).toBeInViewport();
  const navBox = (await nav(page).boundingBox())!;
  const headerBottom = (await page.locator('header').first().boundingBox())!;
  const top = (await heading.boundingBox())!.y;
  // Wide: the nav is a column beside the content; narrow: a bar the heading must clear.
  const cover = navBox.width < page.viewportSize()!.width * 0.5 ? headerBottom.y + headerBottom.height : navBox.y + navBox.height;
  expect(top, 'the heading is not hidden under the sticky bars').toBeGreaterThanOrEqual(cover - 1);
}

for (const width of [1280, 390]) {
  test(`settings at ${width} px: jump to a section, come back, open one by its link; axe finds nothing serious`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await logIn(page.context(), await createVerifiedUser());
    await page.goto('/user/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(nav(page).getByRole('link')).toHaveText(SECTIONS);
    await expect(nav(page).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'location');
    expect(await seriousViolations(page)).toEqual([]);
    await expect.poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-settings-top-${width}.png` });

    await test.step('a section link jumps there and says so in the address', async () => {
      await nav(page).getByRole('link', { name: 'Notifications' }).click();
      await expect(page).toHaveURL(/\/user\/settings#notifications$/);
      await landedOn(page, page.getByRole('heading', { name: 'Notifications', level: 2 }));
      await expect(nav(page).getByRole('link', { name: 'Notifications' })).toHaveAttribute('aria-current', 'location');
      if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-settings-notifications-${width}.png` });
    });

    await test.step('another, then back returns to the one before', async () => {
      await nav(page).getByRole('link', { name: 'Blocked people' }).click();
      await expect(page).toHaveURL(/#blocked$/);
      await expect(page.getByRole('heading', { name: 'Blocked people', level: 2 })).toBeInViewport();
      await expect(nav(page).getByRole('link', { name: 'Blocked people' })).toHaveAttribute('aria-current', 'location');
      await page.goBack();
      await expect(page).toHaveURL(/#notifications$/);
      await expect(page.getByRole('heading', { name: 'Notifications', level: 2 })).toBeInViewport();
    });

    await test.step('a link to a section opens it, although the cards above it are still loading', async () => {
      await page.goto('/user/settings#security');
      await landedOn(page, page.getByRole('heading', { name: 'Password', level: 2 }));
      await expect(nav(page).getByRole('link', { name: 'Sign-in & security' })).toHaveAttribute('aria-current', 'location');
      // Everything has loaded, and the section is still where the link put it.
      await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await landedOn(page, page.getByRole('heading', { name: 'Password', level: 2 }));
      expect(await seriousViolations(page)).toEqual([]);
      if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-settings-security-${width}.png` });
    });
  });
}

test('notification rows: a learner sees none of the educators’ or organisers’; an educator and an organiser see theirs', async ({
  browser,
}) => {
  const rowsOf = async (user: { email: string; password: string }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(context, user);
    await page.goto('/user/settings#notifications');
    await expect(notificationRows(page).first()).toBeVisible();
    const rows = await notificationRows(page).allTextContents();
    if (process.env.AGORA_SHOTS)
      await page.screenshot({ path: `/tmp/agora-settings-rows-${user.email.split('@')[0]}.png`, fullPage: true });
    await context.close();
    return rows;
  };

  const learnerRows = await rowsOf(await createVerifiedUser());
  expect(learnerRows).toEqual(expect.arrayContaining(['New messages', 'Enrolment confirmations', 'New events in your clubs']));
  for (const row of [...EDUCATOR_ROWS, ...ORGANISER_ROWS]) expect(learnerRows).not.toContain(row);

  const { user: educator } = await createEducator();
  const educatorRows = await rowsOf(educator);
  expect(educatorRows).toEqual(expect.arrayContaining([...EDUCATOR_ROWS, 'Enrolment confirmations']));
  for (const row of ORGANISER_ROWS) expect(educatorRows).not.toContain(row);

  const organiser = await createVerifiedUser();
  await createClub((await signedInClient(organiser)).send);
  const organiserRows = await rowsOf(organiser);
  expect(organiserRows).toEqual(expect.arrayContaining(ORGANISER_ROWS));
  for (const row of EDUCATOR_ROWS) expect(organiserRows).not.toContain(row);
});
