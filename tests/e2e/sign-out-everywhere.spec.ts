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

test('a tab that only hears the server (its socket) is told it was signed out, not that its session expired', async ({ context }) => {
  await logIn(context, await createVerifiedUser());
  const first = await context.newPage();
  const second = await context.newPage();
  // The second tab hears nothing from the sign-in channel: only its realtime socket can tell it.
  await second.addInitScript(() => {
    delete (window as { BroadcastChannel?: unknown }).BroadcastChannel;
  });
  await first.goto('/explore');
  const socketReady = new Promise<void>((resolve) =>
    second.on('websocket', (ws) => ws.on('framereceived', (frame) => String(frame.payload).includes('"ready"') && resolve())),
  );
  await second.goto('/explore');
  await expect(second.getByRole('heading', { name: /^Welcome,/ })).toBeVisible();
  // Its socket is signed in (the server said ready) before the other tab signs out.
  await socketReady;
  await expect.poll(() => second.evaluate(() => typeof BroadcastChannel)).toBe('undefined');

  const menu = await openAvatarMenu(first);
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(first).toHaveURL(/\/login$/);

  await expect(second).toHaveURL(/\/login\?reason=signed-out$/);
  await expect(second.getByRole('status')).toContainText('You have been signed out.');
});
