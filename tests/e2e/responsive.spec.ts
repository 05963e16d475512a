import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, logIn } from './support';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const scrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

test('the app shell fits a 360 px wide screen and its menu opens', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser({ firstName: 'Christine', lastName: 'Darden-Mann' }));

  await page.goto('/explore');
  await expect(page.getByRole('heading', { name: 'Welcome, Christine' })).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(360);

  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.click();
  const nav = page.locator('#mobile-nav');
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link')).toHaveText(['Explore', 'Courses', 'Clubs', 'Mailbox', 'Notifications', 'Dashboard']);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-mobile-menu.png' });

  await nav.getByRole('link', { name: 'Clubs' }).click();
  await expect(page).toHaveURL(/\/club\/search$/);
  await expect(nav).toBeHidden();

  await page.goto('/user/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-mobile-settings.png', fullPage: true });
});

test('the public pages fit a 360 px wide screen', async ({ page }) => {
  for (const path of ['/', '/login', '/signup']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await scrollWidth(page), path).toBeLessThanOrEqual(360);
  }
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-mobile-signup.png', fullPage: true });
});
