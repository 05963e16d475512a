import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn, whoAmI } from './support';

test('"Sign out other devices" ends the sessions of the other browsers', async ({ page, context, browser }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const phone = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });
  await logIn(phone, user);
  const phonePage = await phone.newPage();
  await phonePage.goto('/explore');
  await expect(phonePage.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();

  await page.goto('/user/settings');
  const sessions = page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(sessions.filter({ hasText: 'Safari on iOS' })).toHaveCount(1);

  await page.getByRole('button', { name: 'Sign out other devices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out 1 other device' })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out other devices' })).toBeDisabled();

  await phonePage.goto('/explore');
  await expect(phonePage).toHaveURL(/\/login\?next=%2Fexplore&reason=session-expired$/);
  await expect(phonePage.getByText('Your session has ended')).toBeVisible();
  expect(await whoAmI(phone)).toBe(401);
  expect(await whoAmI(context)).toMatchObject({ email: user.email });
  await phone.close();
});

test('one other device can be signed out from the list', async ({ page, context, browser }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const tablet = await browser.newContext();
  await logIn(tablet, user);

  await page.goto('/user/settings');
  const other = page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem').filter({ hasNotText: 'This device' });
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'That device has been signed out' })).toBeVisible();
  await expect(other).toHaveCount(0);
  expect(await whoAmI(tablet)).toBe(401);
  await tablet.close();
});

test('a page left open on a revoked session sends the user to /login with an explanation, at once (its realtime socket is closed)', async ({
  page,
  context,
  browser,
}) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const laptop = await browser.newContext();
  await logIn(laptop, user);
  const laptopPage = await laptop.newPage();
  await laptopPage.goto('/user/settings');
  await expect(laptopPage.getByLabel('City')).toBeVisible();

  await page.goto('/user/settings');
  await page.getByRole('button', { name: 'Sign out other devices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out 1 other device' })).toBeVisible();

  // The laptop's socket is closed by the server (session ended); the page goes to /login by itself.
  await expect(laptopPage).toHaveURL(/\/login\?next=%2Fuser%2Fsettings&reason=session-expired$/);
  await expect(laptopPage.getByRole('status')).toContainText('Your session has ended. Please log in again.');
  await laptop.close();
});
