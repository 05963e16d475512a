import { expect, test, type Page } from '@playwright/test';
import { ApiClient, createVerifiedUser, linkIn, newUser, outbox, signUpViaApi, type NewUser } from './support';

async function fillSignUp(page: Page, user: NewUser) {
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Birthdate').fill(user.birthdate);
}

test.beforeEach(async ({ page }) => {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create your Agora account' })).toBeVisible();
});

test('an empty sign-up form says "Empty Fields" and marks every field', async ({ page }) => {
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Empty Fields');
  for (const label of ['First name', 'Last name', 'Birthdate']) {
    await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('fields of spaces only count as empty', async ({ page }) => {
  await fillSignUp(page, newUser({ firstName: '   ' }));
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Empty Fields');
  await expect(page.getByText('First name is required')).toBeVisible();
});

test('a weak password is refused with the list of reasons', async ({ page }) => {
  const user = newUser({ password: 'password' });
  await fillSignUp(page, user);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This password is too weak');
  await expect(alert.getByRole('listitem')).toHaveText(['This password is too common', 'Mix letters with numbers or symbols']);

  // A password built on the email address is refused for that reason.
  await page.getByLabel('Password', { exact: true }).fill(`${user.email.split('@')[0]}!1`);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(alert.getByRole('listitem')).toContainText(['Do not include your email address']);
  await expect(page).toHaveURL(/\/signup$/);
});

test('an email already in use is refused by the server with 409', async ({ page }) => {
  const existing = await createVerifiedUser();
  await fillSignUp(page, newUser({ email: existing.email.toUpperCase() }));
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/accounts/sign-up')),
    page.getByRole('button', { name: 'Sign up', exact: true }).click(),
  ]);
  expect(response.status()).toBe(409);
  await expect(page.getByRole('alert')).toContainText('Email already in use');
  await expect(page).toHaveURL(/\/signup$/);
});

test('an unverified account cannot log in, is told why and can get the link again', async ({ page }) => {
  const user = await signUpViaApi(newUser());
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Please verify your email before logging in');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('button', { name: 'Resend the verification email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'a new link is on its way' })).toBeVisible();
  const api = new ApiClient();
  await expect.poll(async () => (await outbox(api, user.email)).filter((m) => /verify/i.test(m.subject)).length).toBe(2);
});

test('a broken verification link says so and offers to log in', async ({ page }) => {
  const user = await signUpViaApi(newUser());
  const [mail] = await outbox(new ApiClient(), user.email);
  const link = new URL(linkIn(mail));
  link.searchParams.set('token', 'not-a-real-token');
  await page.goto(link.toString());
  await expect(page).toHaveURL(/\/email-verified\?error=/);
  await expect(page.getByRole('heading', { name: 'This link did not work' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to log in' })).toBeVisible();
});
