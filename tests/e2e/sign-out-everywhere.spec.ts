import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn, openAvatarMenu, whoAmI } from './support';

test('signing out in one tab signs out every open tab of the browser', async ({ context }) => {
  await logIn(context, await createVerifiedUser());
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto('/explore');
  await second.goto('/explore');
  await expect(second.getByRole('heading', { name: /^Welcome,/ })).toBeVisible();

  const menu = await openAvatarMenu(first);
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(first).toHaveURL(/\/login$/);

  // The other tab follows by itself (no reload by the test).
  await expect(second).toHaveURL(/\/login\?reason=signed-out$/);
  await expect(second.getByRole('status')).toContainText('You have been signed out.');
  expect(await whoAmI(context)).toBe(401);
});
