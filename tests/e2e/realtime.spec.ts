import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn, signedInClient } from './support';

/**
 * The tab's realtime socket (issue 10): opened by the app shell when signed in, it hears
 * the user's events; the unread badge on Mailbox and the document title follow live.
 */
test('the signed-in tab opens one socket and hears its user’s events', async ({ page }) => {
  const user = await createVerifiedUser();
  await logIn(page.context(), user);
  const socket = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'));
  await page.goto('/explore');
  const ws = await socket;
  await ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"'));

  const other = await signedInClient(user);
  const echoed = ws.waitForEvent('framereceived', (f) => String(f.payload).includes('dev.echo'));
  expect((await other.post('/api/dev/realtime/echo', { note: 'hello' })).status).toBe(200);
  expect(String((await echoed).payload)).toContain('hello');
});
