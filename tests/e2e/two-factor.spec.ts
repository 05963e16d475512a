import { expect, test, type Page } from '@playwright/test';
import { totp } from '../support/totp';
import { seriousViolations } from './checks';
import { BASE_URL, createVerifiedUser, logIn, openAvatarMenu, useGoogleProfile, whoAmI } from './support';

async function signOut(page: Page) {
  const menu = await openAvatarMenu(page);
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

test('turn on an authenticator app in settings, then log in with password + code, and with a backup code', async ({ context }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const page = await context.newPage();
  await page.goto('/user/settings');

  await page.getByRole('button', { name: 'Turn on an authenticator app' }).click();
  await page.getByLabel('Your password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const shown = (await page.getByTestId('totp-key').textContent())!.trim();
  // Shown in groups of four (issue 23); typed without the spaces.
  expect(shown).toMatch(/^[A-Z2-7=]{1,4}( [A-Z2-7=]{1,4})*$/);
  const key = shown.replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]+=*$/);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-2fa-settings-scan.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('2. Enter the 6-digit code it shows').fill(totp(key));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const backupCodes = await codes.allTextContents();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as .txt' }).click();
  expect((await download).suggestedFilename()).toBe('agora-backup-codes.txt');
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-2fa-settings-codes.png', fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('On: logging in asks for a code')).toBeVisible();

  await signOut(page);
  await passwordStep(page, user.email, user.password);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-2fa-login-step.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('Code').fill(totp(key, Date.now(), 5));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('This code is not correct');
  await page.getByLabel('Code').fill(totp(key));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect(await whoAmI(context)).toMatchObject({ email: user.email });

  await signOut(page);
  await passwordStep(page, user.email, user.password);
  await page.getByLabel('Code').fill(backupCodes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect(await whoAmI(context)).toMatchObject({ email: user.email });
});

test('with two-factor on, a Google log-in opens the code step and returns to the page first asked for', async ({ context }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const api = (path: string, data?: object) => context.request.post(`${BASE_URL}${path}`, { data, headers: { origin: BASE_URL } });
  const { key } = await (await api('/api/accounts/two-factor/setup', { password: user.password })).json();
  expect((await api('/api/accounts/two-factor/confirm', { code: totp(key) })).status()).toBe(200);
  await useGoogleProfile(context, { email: user.email, name: 'Katherine Johnson' });
  const link = await api('/api/accounts/linked-accounts/google');
  expect(link.status(), await link.text()).toBe(200);
  const page = await context.newPage();
  await page.goto((await link.json()).url);
  await expect(page).toHaveURL(/\/user\/settings/);
  await signOut(page);

  await page.goto('/course/search');
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/login\?step=two-factor$/);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  expect(await whoAmI(context)).toBe(401);
  await page.getByLabel('Code').fill(totp(key));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/course\/search$/);
  expect(await whoAmI(context)).toMatchObject({ email: user.email });
});
