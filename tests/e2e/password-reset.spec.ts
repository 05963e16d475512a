import { expect, test } from '@playwright/test';
import { ApiClient, createVerifiedUser, latestEmail, linkIn, logIn, whoAmI } from './support';

test('a forgotten password is reset from the emailed link, signing out every other session', async ({ page, browser }) => {
  const user = await createVerifiedUser();
  const laptop = await browser.newContext();
  await logIn(laptop, user);
  expect(await whoAmI(laptop)).toMatchObject({ email: user.email });

  await test.step('ask for the link: the answer is the same for every email', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/send-password-reset$/);
    await page.getByLabel('Email', { exact: true }).fill(`  ${user.email}  `);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for this email, we sent a link');

    await page.goto('/send-password-reset');
    await page.getByLabel('Email', { exact: true }).fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for this email, we sent a link');
  });

  await test.step('open the link and choose a new password', async () => {
    const link = linkIn(await latestEmail(new ApiClient(), user.email, /reset/i));
    await page.goto(link);
    await expect(page).toHaveURL(/\/reset-password\?token=/);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toContainText('This password is too weak');
    await expect(page.getByText('Use at least 8 characters')).toBeVisible();

    await page.getByLabel('New password', { exact: true }).fill('Harbour-lights-77');
    await page.getByLabel('Confirm new password').fill('Harbour-lights-77');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/login\?reason=password-reset$/);
    await expect(page.getByRole('status')).toContainText('Your password has been changed. Log in with the new one.');
  });

  await test.step('the other session is over; only the new password works', async () => {
    expect(await whoAmI(laptop)).toBe(401);
    await laptop.close();

    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Incorrect Email or Password');

    await page.getByLabel('Password', { exact: true }).fill('Harbour-lights-77');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/explore$/);
  });
});

test('a reset link can be used only once', async ({ page }) => {
  const user = await createVerifiedUser();
  const api = new ApiClient();
  expect((await api.post('/api/accounts/password-reset', { email: user.email })).status).toBe(200);
  const link = linkIn(await latestEmail(api, user.email, /reset/i));

  await page.goto(link);
  const resetUrl = page.url();
  await page.getByLabel('New password', { exact: true }).fill('Quiet-meadow-42');
  await page.getByLabel('Confirm new password').fill('Quiet-meadow-42');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/login\?reason=password-reset$/);

  await page.goto(resetUrl);
  await page.getByLabel('New password', { exact: true }).fill('Another-meadow-43');
  await page.getByLabel('Confirm new password').fill('Another-meadow-43');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('This reset link is invalid or has expired');
});
