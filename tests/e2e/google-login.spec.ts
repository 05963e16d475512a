import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, logIn, uniqueEmail, useGoogleProfile, whoAmI, type CurrentUser } from './support';

/** Every URL the top frame went through, to see the redirect flow pass /google-login. */
function recordNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && urls.push(frame.url()));
  page.on('request', (r) => r.isNavigationRequest() && urls.push(r.url()));
  return urls;
}

test('a new Google user logs in through the provider and gets their names from the profile', async ({ page, context }) => {
  const email = uniqueEmail('google');
  await useGoogleProfile(context, { email, name: 'Grace Brewster Hopper' });
  const visited = recordNavigations(page);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/explore$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Grace' })).toBeVisible();
  expect(visited.some((u) => u.startsWith(`http://127.0.0.1:${process.env.E2E_OIDC_PORT}/authorize`))).toBe(true);
  expect(visited.some((u) => /\/google-login(\?|$)/.test(u))).toBe(true);

  await page.goto('/user/settings');
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
  await expect(page.getByLabel('Last name')).toHaveValue('Brewster Hopper');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  const me = (await whoAmI(context)) as CurrentUser;
  expect(me.email).toBe(email);
  expect(me.verified).toBe(true);
});

test('Google on /signup takes the given and family names of the profile', async ({ page, context }) => {
  await useGoogleProfile(context, { email: uniqueEmail('google'), name: 'Ignored Full Name', given_name: 'Annie', family_name: 'Easley' });
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/explore$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Annie' })).toBeVisible();
  const me = (await whoAmI(context)) as CurrentUser;
  expect([me.firstName, me.lastName]).toEqual(['Annie', 'Easley']);
});

test('Google login returns to the page first asked for', async ({ page, context }) => {
  await useGoogleProfile(context, { email: uniqueEmail('google'), name: 'Mary Golda Ross' });
  await page.goto('/course/search');
  await expect(page).toHaveURL(/\/login\?next=%2Fcourse%2Fsearch$/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/course\/search$/);
  await expect(page.getByRole('heading', { name: 'Find a course' })).toBeVisible();
});

test('a refused Google login says "Google Auth Error" and signs nobody in', async ({ page, context }) => {
  await useGoogleProfile(context, { email: uniqueEmail('google'), name: 'No Thanks', deny: true });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/google-login\?error=/);
  await expect(page.getByRole('alert')).toContainText('Google Auth Error');
  expect(await whoAmI(context)).toBe(401);
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('Google login with the email of a password account links to that account', async ({ page, context, browser }) => {
  const user = await createVerifiedUser({ firstName: 'Evelyn', lastName: 'Boyd' });
  const other = await browser.newContext();
  const before = await logIn(other, user);
  expect(before.id).toBe(user.id);

  await useGoogleProfile(context, { email: user.email.toUpperCase(), name: 'Evelyn Boyd Granville' });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/explore$/);
  const after = (await whoAmI(context)) as CurrentUser;
  expect(after.id).toBe(user.id);
  // The account keeps its own names, and the password still works.
  expect([after.firstName, after.lastName]).toEqual(['Evelyn', 'Boyd']);
  await logIn(other, user);
  expect(((await whoAmI(other)) as CurrentUser).id).toBe(user.id);
  await other.close();
});

test('a Google email the provider has not verified is not linked to an existing account', async ({ page, context }) => {
  const user = await createVerifiedUser();
  await useGoogleProfile(context, { email: user.email, name: 'Someone Else', email_verified: false });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/google-login\?error=/);
  await expect(page.getByRole('alert')).toContainText('Google Auth Error');
  expect(await whoAmI(context)).toBe(401);
});
