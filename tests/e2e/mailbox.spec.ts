import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { fitsNarrowScreen, seriousViolations } from './checks';
import { createEducator, createVerifiedUser, logIn, signedInClient } from './support';

/**
 * The mailbox (issue 10): two people in two browsers talk live; a message sent while a
 * tab's socket is down shows exactly once after it reconnects; blocking stops both sides.
 */

const thread = (page: Page) => page.getByRole('log', { name: /^Messages with/ });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

async function socketReady(page: Page) {
  const socket = await page.waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'));
  await socket.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"'));
}

test('two users converse live: Message on a profile, the reply, typing, read state, the list', async ({ browser }) => {
  const { user: ada } = await createEducator({ firstName: 'Adaline', lastName: `Byron ${randomUUID().slice(0, 4)}` });
  const bea = await createVerifiedUser({ firstName: 'Beatrix', lastName: 'Potter' });
  const adaContext = await browser.newContext();
  const beaContext = await browser.newContext();
  await logIn(adaContext, ada);
  await logIn(beaContext, bea);
  const adaPage = await adaContext.newPage();
  const beaPage = await beaContext.newPage();

  // Bea starts from Ada's public profile.
  await beaPage.goto(`/educator/${ada.id}`);
  await beaPage.getByRole('link', { name: 'Message' }).click();
  await expect(beaPage).toHaveURL(new RegExp(`/mailbox/${ada.id}$`));
  await expect(beaPage.getByText(`This is the start of your conversation with ${ada.firstName}`)).toBeVisible();
  expect(await seriousViolations(beaPage)).toEqual([]);

  const adaReady = socketReady(adaPage);
  await adaPage.goto(`/mailbox/${bea.id}`);
  await adaReady;
  await expect(composer(adaPage)).toBeVisible();

  // Enter sends; Shift+Enter is a new line.
  await composer(beaPage).fill('Hello Ada!');
  await composer(beaPage).press('Shift+Enter');
  await composer(beaPage).pressSequentially('Is https://example.com/class the link?');
  await composer(beaPage).press('Enter');
  await expect(thread(beaPage).getByText('Hello Ada!')).toBeVisible();
  await expect(composer(beaPage)).toHaveValue('');
  // Ada sees it without a reload, with the link clickable.
  await expect(thread(adaPage).getByText('Hello Ada!')).toBeVisible();
  await expect(thread(adaPage).getByRole('link', { name: 'https://example.com/class' })).toHaveAttribute(
    'href',
    'https://example.com/class',
  );

  // Typing shows on the other side; the reply arrives live; Ada's open thread marked Bea's message read.
  await composer(adaPage).pressSequentially('Yes it is', { delay: 30 });
  await expect(beaPage.getByText(`${ada.firstName} ${ada.lastName} is typing…`)).toBeVisible();
  await composer(adaPage).press('Enter');
  await expect(thread(beaPage).getByText('Yes it is')).toBeVisible();
  await composer(beaPage).fill('Thanks! <b>not bold</b>');
  await composer(beaPage).press('Enter');
  await expect(thread(adaPage).getByText('Thanks! <b>not bold</b>')).toBeVisible();
  await expect(thread(beaPage).getByText('Read')).toBeVisible();
  await expect(thread(beaPage).locator('b')).toHaveCount(0);

  expect(await seriousViolations(beaPage)).toEqual([]);
  await fitsNarrowScreen(beaPage, 'mailbox', 'thread');
  await beaPage.setViewportSize({ width: 390, height: 800 });
  expect(await seriousViolations(beaPage)).toEqual([]);
  if (process.env.AGORA_SHOTS) await beaPage.screenshot({ path: '/tmp/agora-mailbox-thread-390.png' });
  await beaPage.setViewportSize({ width: 1280, height: 800 });
  if (process.env.AGORA_SHOTS) await beaPage.screenshot({ path: '/tmp/agora-mailbox-thread-1280.png' });

  // The list: Ada, the last message, no unread; a search by message text finds her.
  await beaPage.goto('/mailbox');
  const row = beaPage.getByRole('list', { name: 'Conversations' }).getByRole('link').filter({ hasText: ada.lastName });
  await expect(row).toContainText('You: Thanks!');
  await beaPage.getByLabel('Search conversations').fill('example.com');
  await expect(row).toBeVisible();
  await beaPage.getByLabel('Search conversations').fill('nothing like this');
  await expect(beaPage.getByText('No conversation matches')).toBeVisible();
  await beaPage.getByLabel('Search conversations').fill('');
  expect(await seriousViolations(beaPage)).toEqual([]);
  await fitsNarrowScreen(beaPage, 'mailbox', 'list');
  await beaPage.setViewportSize({ width: 390, height: 800 });
  expect(await seriousViolations(beaPage)).toEqual([]);
  if (process.env.AGORA_SHOTS) await beaPage.screenshot({ path: '/tmp/agora-mailbox-list-390.png' });

  await adaContext.close();
  await beaContext.close();
});

test('a message sent after the thread loaded but before its socket was ready still appears (the first connect catches up)', async ({
  page,
}) => {
  const ada = await createVerifiedUser({ firstName: 'Adelind' });
  const bea = await createVerifiedUser({ firstName: 'Bettina' });
  const adaApi = await signedInClient(ada);
  await logIn(page.context(), bea);
  // Bea's socket reaches the server only once the test lets it: the message goes in between.
  let letThrough!: () => void;
  const gate = new Promise<void>((resolve) => (letThrough = resolve));
  let opened = false;
  await page.routeWebSocket(/\/api\/realtime$/, async (ws) => {
    opened = true;
    await gate;
    ws.connectToServer();
  });
  const first = await adaApi.post(`/api/mailbox/conversations/${bea.id}/messages`, { body: 'hello first', clientId: randomUUID() });
  expect(first.status, first.text).toBe(201);
  await page.goto(`/mailbox/${ada.id}`);
  await expect(thread(page).getByText('hello first', { exact: true })).toBeVisible();
  await expect.poll(() => opened).toBe(true);
  const gap = await adaApi.post(`/api/mailbox/conversations/${bea.id}/messages`, { body: 'sent in the gap', clientId: randomUUID() });
  expect(gap.status, gap.text).toBe(201);
  letThrough();
  await expect(thread(page).getByText('sent in the gap')).toBeVisible();
});

test('a message sent while the socket is down appears exactly once, in order, after the reconnect', async ({ page }) => {
  const ada = await createVerifiedUser({ firstName: 'Adaline' });
  const bea = await createVerifiedUser({ firstName: 'Beatrix' });
  const adaApi = await signedInClient(ada);
  await logIn(page.context(), bea);

  // Bea's socket goes through the test, which can cut it and refuse reconnects for a while.
  let down = false;
  let current: WebSocketRoute | null = null;
  // The reconnects carry ?since= (the last number seen, ADR 0061).
  await page.routeWebSocket(/\/api\/realtime(\?since=\d+)?$/, (ws) => {
    if (down) {
      ws.close();
      return;
    }
    current = ws;
    ws.connectToServer();
  });
  const say = async (body: string) => {
    const res = await adaApi.post(`/api/mailbox/conversations/${bea.id}/messages`, { body, clientId: randomUUID() });
    expect(res.status, res.text).toBe(201);
  };
  await say('one');
  await page.goto(`/mailbox/${ada.id}`);
  await expect(thread(page).getByText('one', { exact: true })).toBeVisible();
  await expect.poll(() => current !== null).toBe(true);
  await say('two (live)');
  await expect(thread(page).getByText('two (live)')).toBeVisible();
  // A re-read the push of two started (or the first connect's catch-up) may still be on its
  // way: one that lands after three was sent would rightly show three. Let it land first.
  await page.waitForLoadState('networkidle');

  down = true;
  await current!.close();
  await say('three (while down)');
  await page.waitForTimeout(1500);
  await expect(thread(page).getByText('three (while down)')).toHaveCount(0);
  // Sending reads what came before it: three shows, above four.
  await composer(page).fill('four (mine, while down)');
  await composer(page).press('Enter');
  await expect(thread(page).getByText('four (mine, while down)')).toBeVisible();
  await expect(thread(page).getByText('three (while down)')).toBeVisible();
  await say('five (while down)');
  await page.waitForTimeout(1500);
  await expect(thread(page).getByText('five (while down)')).toHaveCount(0);

  down = false;
  await expect(thread(page).getByText('five (while down)')).toBeVisible({ timeout: 40_000 });
  const bodies = await thread(page).locator('li .whitespace-pre-wrap').allInnerTexts();
  expect(bodies).toEqual(['one', 'two (live)', 'three (while down)', 'four (mine, while down)', 'five (while down)']);
});

test('block: neither side can message; the blocked one sees a neutral state; unblock in settings', async ({ browser }) => {
  const ada = await createVerifiedUser({ firstName: 'Adaline' });
  const bea = await createVerifiedUser({ firstName: 'Beatrix', lastName: `Blocker ${randomUUID().slice(0, 4)}` });
  const adaApi = await signedInClient(ada);
  expect(
    (await adaApi.post(`/api/mailbox/conversations/${bea.id}/messages`, { body: 'Buy my course!', clientId: randomUUID() })).status,
  ).toBe(201);
  const beaContext = await browser.newContext();
  await logIn(beaContext, bea);
  const beaPage = await beaContext.newPage();
  await beaPage.goto(`/mailbox/${ada.id}`);
  await expect(thread(beaPage).getByText('Buy my course!')).toBeVisible();

  // Report the message, then block.
  await beaPage.getByRole('button', { name: 'Report this message' }).click();
  await beaPage.getByRole('dialog').getByLabel('What is wrong with it?').fill('Spam');
  expect(await seriousViolations(beaPage)).toEqual([]);
  await beaPage.getByRole('dialog').getByRole('button', { name: 'Report' }).click();
  await expect(beaPage.getByText('Thank you. Our team will look at this message.')).toBeVisible();
  await beaPage.getByRole('button', { name: 'Block', exact: true }).click();
  await beaPage.getByRole('dialog').getByRole('button', { name: 'Block', exact: true }).click();
  await expect(beaPage.getByText(/You blocked .*Neither of you can message the other/)).toBeVisible();
  await expect(composer(beaPage)).toHaveCount(0);

  const adaContext = await browser.newContext();
  await logIn(adaContext, ada);
  const adaPage = await adaContext.newPage();
  await adaPage.goto(`/mailbox/${bea.id}`);
  await expect(adaPage.getByText("You can't message this person.")).toBeVisible();
  await expect(composer(adaPage)).toHaveCount(0);
  expect(await seriousViolations(adaPage)).toEqual([]);
  const refused = await adaApi.post(`/api/mailbox/conversations/${bea.id}/messages`, { body: 'Hello?', clientId: randomUUID() });
  expect(refused.status).toBe(403);

  // Unblock from settings: Ada's open thread gets its composer back live.
  await beaPage.goto('/user/settings');
  const blocked = beaPage.getByRole('list', { name: 'Blocked people' });
  await expect(blocked).toContainText(ada.firstName);
  if (process.env.AGORA_SHOTS)
    await beaPage.getByRole('heading', { name: 'Blocked people' }).screenshot({ path: '/tmp/agora-mailbox-blocked.png' });
  await blocked.getByRole('button', { name: /Unblock/ }).click();
  await expect(beaPage.getByText('You have not blocked anyone.')).toBeVisible();
  await expect(composer(adaPage)).toBeVisible();

  // A person who does not exist: the not-found page.
  await adaPage.goto(`/mailbox/${randomUUID()}`);
  await expect(adaPage.getByRole('heading', { name: /not found|doesn.t exist|could not be found/i })).toBeVisible();
  await adaContext.close();
  await beaContext.close();
});

test('the conversation list loads older conversations on scrolling down; search still finds every one', async ({ page }) => {
  const tag = randomUUID().slice(0, 6);
  const me = await createVerifiedUser({ firstName: 'Paula' });
  const writers = [];
  for (const name of ['Ursula', 'Vera', 'Wanda']) {
    const writer = await createVerifiedUser({ firstName: name, lastName: `Pager ${tag}` });
    const res = await (
      await signedInClient(writer)
    ).post(`/api/mailbox/conversations/${me.id}/messages`, {
      body: `${name} says hi ${tag}`,
      clientId: randomUUID(),
    });
    expect(res.status, res.text).toBe(201);
    writers.push(writer);
  }
  // Pages of two (the server's paging with a smaller limit), so three conversations take two pages.
  const pages: string[] = [];
  await page.route(/\/api\/mailbox\/conversations(\?|$)/, (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('limit', '2');
    pages.push(url.searchParams.get('cursor') ?? 'first');
    return route.continue({ url: url.toString() });
  });
  await logIn(page.context(), me);
  await page.goto('/mailbox');
  const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
  // Newest activity first: Wanda wrote last.
  await expect(rows.first()).toContainText('Wanda');
  // The second page loads when the end of the list scrolls into view (here at once: the list is short).
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('Ursula');
  await expect(page.getByRole('button', { name: 'Show older conversations' })).toHaveCount(0);
  expect(pages.filter((p) => p !== 'first').length, 'a second page was asked for with a cursor').toBeGreaterThanOrEqual(1);
  expect(await seriousViolations(page)).toEqual([]);

  // The oldest conversation is on the second page; a search finds it from the first.
  await page.reload();
  await page.getByLabel('Search conversations').fill(`Ursula says hi ${tag}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Ursula');
});
