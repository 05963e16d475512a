import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn } from './support';
import { seriousViolations } from './checks';

const PUBLIC_PAGES: [string, string][] = [
  ['/', 'Learn'],
  ['/login', 'Log in to Agora'],
  ['/signup', 'Create your Agora account'],
];

for (const [path, heading] of PUBLIC_PAGES) {
  test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('axe finds no serious or critical violation on /user/settings, nor on the sign-up errors', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  await page.goto('/user/settings');
  await expect(page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  await context.clearCookies();
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Empty Fields');
  expect(await seriousViolations(page)).toEqual([]);
});
