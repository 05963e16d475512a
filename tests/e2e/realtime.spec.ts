import { expect, test, type Page, type WebSocket } from '@playwright/test';
import { createVerifiedUser, logIn, signedInClient } from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';

/**
 * The tab's realtime socket (issue 10): opened by the app shell when signed in, it hears
 * the user's events; the unread badge on Mailbox and the document title follow live.
 */

/** Opens `path` and resolves with the tab's socket once the server said ready (listening from before the page loads). */
async function openedSocket(page: Page, path: string): Promise<WebSocket> {
  const ready = page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'))
    .then(async (ws) => {
      await ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"'));
      return ws;
    });
  await page.goto(path);
  return ready;
}

test('the signed-in tab opens one socket and hears its user’s events', async ({ page }) => {
  const user = await createVerifiedUser();
  await logIn(page.context(), user);
  const ws = await openedSocket(page, '/explore');

  const other = await signedInClient(user);
  const echoed = ws.waitForEvent('framereceived', (f) => String(f.payload).includes('dev.echo'));
  expect((await other.post('/api/dev/realtime/echo', { note: 'hello' })).status).toBe(200);
  expect(String((await echoed).payload)).toContain('hello');
});

test('the unread badge on Mailbox and the document title follow a counter live, on every open tab', async ({ context }) => {
  const user = await createVerifiedUser();
  await logIn(context, user);
  const first = await context.newPage();
  const second = await context.newPage();
  for (const page of [first, second]) await openedSocket(page, '/explore');
  const mailbox = (page: typeof first) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Mailbox/ });
  await expect(mailbox(first)).toHaveAccessibleName('Mailbox');
  expect(await first.title()).not.toMatch(/^\(/);

  // Another session of the same user changes a counter (the dev counter stands in for unread messages).
  const api = await signedInClient(user);
  expect((await api.send('PUT', '/api/dev/realtime/unread', { count: 3 })).status).toBe(200);
  for (const page of [first, second]) {
    await expect(mailbox(page)).toHaveAccessibleName(/^Mailbox\s*, 3 unread$/);
    await expect(page.getByTestId('unread-badge')).toHaveText('3');
    await expect(page).toHaveTitle(/^\(3\) /);
  }
  expect(await seriousViolations(first)).toEqual([]);
  await fitsNarrowScreen(first, 'realtime', 'badge');
  // The phone layout: the menu button says there is something unread.
  await first.setViewportSize({ width: 390, height: 800 });
  await expect(first.getByRole('button', { name: 'Open menu, 3 unread' })).toBeVisible();
  if (process.env.AGORA_SHOTS) await first.screenshot({ path: '/tmp/agora-realtime-badge-390.png' });
  await first.getByRole('button', { name: 'Open menu, 3 unread' }).click();
  await expect(first.locator('#mobile-nav').getByRole('link', { name: /^Mailbox\s*, 3 unread$/ })).toBeVisible();
  if (process.env.AGORA_SHOTS) await first.screenshot({ path: '/tmp/agora-realtime-badge-390-open.png' });

  expect((await api.send('PUT', '/api/dev/realtime/unread', { count: 0 })).status).toBe(200);
  for (const page of [first, second]) {
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(page).not.toHaveTitle(/^\(/);
  }
});

test('a tab whose socket drops reconnects by itself with the last number it saw, and is replayed what it missed', async ({ page }) => {
  const user = await createVerifiedUser();
  await logIn(page.context(), user);
  await openedSocket(page, '/explore');

  // Offline: the socket is cut and cannot come back; meanwhile the counter changes.
  const api = await signedInClient(user);
  await page.context().setOffline(true);
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible({ timeout: 60_000 });
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-realtime-reconnecting.png' });
  expect((await api.send('PUT', '/api/dev/realtime/unread', { count: 2 })).status).toBe(200);
  // The next socket says where the tab left off (ADR 0061).
  const frames: string[] = [];
  const reopened = page.waitForEvent('websocket', (ws) => {
    const resuming = /\/api\/realtime\?since=\d+$/.test(ws.url());
    if (resuming) ws.on('framereceived', (f) => frames.push(String(f.payload)));
    return resuming;
  });
  await page.context().setOffline(false);
  await reopened;
  // Back online: the change it missed is replayed (numbered) before `ready` says it resumed, and the badge shows it.
  await expect.poll(() => frames.findIndex((f) => f.includes('"ready"')), { timeout: 60_000 }).toBeGreaterThan(0);
  const ready = frames.findIndex((f) => f.includes('"ready"'));
  expect(JSON.parse(frames[ready])).toMatchObject({ type: 'ready', resumed: true });
  expect(frames.slice(0, ready).map((f) => JSON.parse(f) as { type: string; seq: number })).toContainEqual(
    expect.objectContaining({ type: 'unread.changed', seq: expect.any(Number) }),
  );
  await expect(page.getByTestId('unread-badge')).toHaveText('2', { timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toHaveCount(0);
});
