import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn } from './support';

test('a protected page sends a visitor to /login?next= and, after logging in, back to that page', async ({ page }) => {
  const user = await createVerifiedUser();
  const response = await page.goto('/dashboard');
  // The server redirected the full page load (the shell was never served for /dashboard).
  expect(response!.request().redirectedFrom()?.url()).toMatch(/\/dashboard$/);
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);

  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: "You're not enrolled in any course yet" })).toBeVisible();
});

test('the page asked for keeps its query string through the login', async ({ page }) => {
  const user = await createVerifiedUser();
  await page.goto('/course/search?q=pottery&page=2');
  await expect(page).toHaveURL(/\/login\?next=%2Fcourse%2Fsearch%3Fq%3Dpottery%26page%3D2$/);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/course\/search\?q=pottery&page=2$/);
});

test('paths match whatever their case, and the lowercase path is canonical', async ({ page }) => {
  await page.goto('/Login');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in to Agora' })).toBeVisible();

  await page.goto('/SIGNUP?ref=mail');
  await expect(page).toHaveURL(/\/signup\?ref=mail$/);
  await expect(page.getByRole('heading', { name: 'Create your Agora account' })).toBeVisible();
});

test('an unknown path shows "Page Not Found" with HTTP status 404', async ({ page, context }) => {
  const response = await page.goto('/no/such/page');
  expect(response!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();

  // Signed in it is the same: no route, no page.
  await logIn(context, await createVerifiedUser());
  const again = await page.goto('/course/1/nope');
  expect(again!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('following a link to a protected page without a session goes to /login in the app', async ({ page }) => {
  await page.goto('/');
  const documents: string[] = [];
  page.on('request', (r) => r.resourceType() === 'document' && documents.push(r.url()));
  await page.evaluate(() => ((window as unknown as { e2eMarker: string }).e2eMarker = 'same page'));

  // The landing page links only where a visitor may go: a featured course asks to log in first.
  await page.getByRole('list', { name: 'Featured courses' }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/login\?next=%2Fcourse%2F[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: 'Log in to Agora' })).toBeVisible();
  // Handled by the router: no page load happened.
  expect(documents).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('same page');

  // Back/forward navigation (popstate) is guarded the same way.
  await page.evaluate(() => {
    history.pushState(null, '', '/user/settings');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fsettings$/);
  // A page of the landing layout that is not public (/pricing) is guarded the same way.
  await page.evaluate(() => {
    history.pushState(null, '', '/pricing');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/login\?next=%2Fpricing$/);
  expect(documents).toEqual([]);
});

test("another user's edit page is not found; your own is your profile", async ({ page, context }) => {
  const [me, other] = await Promise.all([createVerifiedUser(), createVerifiedUser({ firstName: 'Dorothy' })]);
  await logIn(context, me);

  await page.goto(`/user/${other.id}/edit`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveCount(0);

  await page.goto(`/user/${me.id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit your profile' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue(me.firstName);
});

test('the session details page shows who is signed in, never the token', async ({ page, context }) => {
  const user = await createVerifiedUser();
  const me = await logIn(context, user);
  await page.goto('/auth-test');
  await expect(page.getByRole('heading', { name: 'Your session' })).toBeVisible();
  await expect(page.getByText(me.id, { exact: true })).toBeVisible();
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name.endsWith('session_token'))!;
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe('Lax');
  const token = decodeURIComponent(cookie.value).split('.')[0];
  expect(await page.content()).not.toContain(token);
});
