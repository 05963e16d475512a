import { expect, test } from '@playwright/test';

// Only the build metadata endpoint is answered by the test (as if a new build had been
// deployed); everything else is the real server.
const newBuild = { buildId: 'e2e-next-build' };

test('no banner while the server runs the build the page was loaded from', async ({ page }) => {
  const version = page.waitForResponse((r) => r.url().endsWith('/api/version'));
  await page.goto('/login');
  expect((await version).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Log in to Agora' })).toBeVisible();
  await expect(page.getByText('A new version is available')).toHaveCount(0);
});

test('a new deployment is announced on load with a Reload button', async ({ page }) => {
  let answered = 0;
  await page.route('**/api/version', (route) => {
    answered++;
    return route.fulfill({ json: newBuild, headers: { 'cache-control': 'no-store' } });
  });
  await page.goto('/');
  const banner = page.getByRole('status').filter({ hasText: 'A new version is available' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Reload' })).toBeVisible();
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-new-version.png' });

  const before = answered;
  await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Reload' }).click()]);
  await expect.poll(() => answered).toBeGreaterThan(before);
});

test('a deployment made while the tab was hidden is noticed when it becomes visible', async ({ page }) => {
  const first = page.waitForResponse((r) => r.url().endsWith('/api/version'));
  await page.goto('/signup');
  await first;
  await expect(page.getByText('A new version is available')).toHaveCount(0);

  await page.route('**/api/version', (route) => route.fulfill({ json: newBuild }));
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(page.getByRole('status').filter({ hasText: 'A new version is available' })).toBeVisible();
});
