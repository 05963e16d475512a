import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn, signedInClient, whoAmI } from './support';
import { seriousViolations } from './checks';

/**
 * Issue 23, items 7 and 4: "Sign out everywhere" asks first, then /login says what
 * happened; "Ways to log in" offers only what can work (the last way in cannot be removed).
 */

test('ways to log in: the only way in is not offered for removal', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  await page.goto('/user/settings');
  const ways = page.getByRole('list', { name: 'Ways to log in' });
  await expect(ways.getByText('Email and password')).toBeVisible();
  await expect(ways.getByText('Your only way to log in')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove password' })).toHaveCount(0);
  // Google is set up on the e2e server: linking it is offered, and it would make the password removable.
  await expect(ways.getByRole('button', { name: 'Link Google' })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await ways.scrollIntoViewIfNeeded();
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-ways-${width}.png` });
  }
});

test('sign out everywhere asks first, then every session ends and /login says so', async ({ page, context }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const elsewhere = await signedInClient(user);
  await page.goto('/user/settings');
  const button = page.getByRole('button', { name: 'Sign out everywhere' });

  // One click only asks; "Stay signed in" changes nothing.
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('this one included (2 in all)');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await seriousViolations(page), `axe on the dialog at ${width}px`).toEqual([]);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-everywhere-dialog-${width}.png` });
  }
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();
  expect(await whoAmI(context)).toMatchObject({ email: user.email });
  expect((await elsewhere.get('/api/me')).status).toBe(200);

  await button.click();
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login\?reason=signed-out-everywhere$/);
  await expect(page.getByRole('status')).toContainText('You have been signed out everywhere');
  expect(await whoAmI(context)).toBe(401);
  expect((await elsewhere.get('/api/me')).status).toBe(401);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await seriousViolations(page), `axe on /login at ${width}px`).toEqual([]);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-everywhere-login-${width}.png` });
  }
});
