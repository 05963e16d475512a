import { expect, test } from '@playwright/test';
import { seriousViolations } from './checks';
import { createVerifiedUser, logIn } from './support';

/** The demo admin (src/server/seed/demo-users.ts; the e2e server seeds demo data). */
const DEMO_ADMIN = { email: 'admin@agora.local', password: 'Agora-demo-2026' };

test('an admin finds a user and bans them with a reason; the user sees the reason at log-in', async ({ page, browser }) => {
  const victim = await createVerifiedUser();
  await logIn(page.context(), DEMO_ADMIN);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-admin.png', fullPage: true });

  await page.getByLabel('Name or email').fill(victim.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Test users share default names: pick the row by its email (once the search has answered).
  const row = page.getByRole('row').filter({ hasText: victim.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: `${victim.firstName} ${victim.lastName}` }).click();
  await expect(page.getByRole('heading', { name: `${victim.firstName} ${victim.lastName}` })).toBeVisible();
  await page.getByRole('button', { name: 'Ban…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill('Selling answers to exams');
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
  await expect(page.getByText('Banned and signed out everywhere.')).toBeVisible();
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-admin-banned.png', fullPage: true });

  const other = await browser.newContext();
  const userPage = await other.newPage();
  await userPage.goto('/login');
  await userPage.getByLabel('Email', { exact: true }).fill(victim.email);
  await userPage.getByLabel('Password', { exact: true }).fill(victim.password);
  await userPage.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(userPage.getByText(/suspended.*Selling answers to exams/)).toBeVisible();
  await other.close();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByText('“Selling answers to exams”')).toBeVisible();
});

test('a learner opening /admin sees the not-found page', async ({ page }) => {
  const learner = await createVerifiedUser();
  await logIn(page.context(), learner);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin', exact: true })).toHaveCount(0);
});

test('an admin sees the background jobs that finished lately, and how long they are kept', async ({ page }) => {
  await logIn(page.context(), DEMO_ADMIN);
  // The refund retry is a recurring job (every 15 s, once across instances): its passes are kept.
  await expect(async () => {
    await page.goto('/admin?section=jobs');
    await page.getByText(/Recently finished \(\d+; kept \d+ days?\)/).click();
    await expect(page.getByText('payments.refund-retry').first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText('done').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
