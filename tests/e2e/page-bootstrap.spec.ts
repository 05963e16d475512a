import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn, openAvatarMenu } from './support';

/** Decision 0024: a signed-in first load renders from the data in the page, without GET /api/me or the page's data request. */
test('a signed-in first load of /explore, /dashboard and /course/search asks neither /api/me nor its data; after signing out, the next user sees their own name', async ({
  page,
}) => {
  const ada = await createVerifiedUser({ firstName: 'Ada' });
  const alan = await createVerifiedUser({ firstName: 'Alan' });
  const asked: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (['/api/me', '/api/explore', '/api/dashboard', '/api/courses/search'].includes(path)) asked.push(path);
  });

  await logIn(page, ada);
  await page.goto('/explore');
  await expect(page.getByRole('button', { name: `Account menu for Ada ${ada.lastName}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: "You're not enrolled in any course yet" })).toBeVisible();
  await page.goto('/course/search');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main a[href^="/course/"]').first()).toBeVisible();
  expect(asked).toEqual([]);

  await openAvatarMenu(page);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await logIn(page, alan);
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: `Account menu for Alan ${alan.lastName}` })).toBeVisible();
  await page.goto('/explore');
  await expect(page.getByRole('button', { name: `Account menu for Alan ${alan.lastName}` })).toBeVisible();
  await expect(page.getByText(`Ada ${ada.lastName}`)).toHaveCount(0);
});

/** Decision 0032: the embedded answer is the first render's data: no skeleton, then cards. */
test('the first render of / and /course/search draws the embedded courses, never their skeleton', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { skeletons: string[] }).skeletons = seen;
    new MutationObserver(() => {
      if (document.querySelector('[aria-label="Loading courses"]')) seen.push(location.pathname);
    }).observe(document, { childList: true, subtree: true });
  });
  const skeletons = () => page.evaluate(() => (window as unknown as { skeletons: string[] }).skeletons);

  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Featured courses' }).getByRole('listitem').first()).toBeVisible();
  expect(await skeletons()).toEqual([]);

  const ada = await createVerifiedUser({ firstName: 'Ada' });
  await logIn(page, ada);
  await page.goto('/course/search');
  await expect(page.getByRole('list', { name: 'Courses found' }).getByRole('listitem').first()).toBeVisible();
  expect(await skeletons()).toEqual([]);
});
