import { createServer } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startAppServer, type AppServer } from './app-server';
import { BASE_URL, createVerifiedUser, logIn } from './support';

/**
 * The mailbox across two app processes on one PostgreSQL database (issue 10): Ada's tab
 * talks to server 1, Bea's to server 2, as two instances behind a load balancer would
 * split them; messages, the reply and Bea's unread badge still arrive live (the realtime
 * fan-out goes through PostgreSQL LISTEN/NOTIFY, tests/api/realtime/fan-out.test.ts).
 *
 * Server 2 is started the way the global setup starts server 1 (same DATABASE_URL, same
 * data directory as shared file storage, same environment and so the same AUTH_SECRET: a
 * session cookie is valid on both) with its own port and PUBLIC_URL. Without a load balancer
 * in front, the browser's origin for server 2 is http://localhost:<port 2>, and the server's
 * Origin check compares against PUBLIC_URL, so that is the one honest value; behind a real
 * balancer both would share one public URL. It does not seed: the demo data is already there.
 */

const databaseUrl = process.env.E2E_DATABASE_URL;
test.skip(!databaseUrl, 'two servers need one PostgreSQL database (PGlite is one process)');

const thread = (page: Page) => page.getByRole('log', { name: /^Messages with/ });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
const mailboxLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Mailbox/ });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Opens `path`, waits until the tab's realtime socket said ready, and gives the socket's host. */
async function openWithSocket(page: Page, path: string): Promise<string> {
  const ready = page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'))
    .then(async (ws) => {
      await ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"'));
      return new URL(ws.url()).host;
    });
  await page.goto(path);
  return ready;
}

/**
 * Bea's unread counts as her server (2) reports them, and her badge showing their total live
 * (the badge sums the counters; a new message counts once, as a message).
 */
async function badgeFollows(page: Page, server: string, messages: number) {
  let total = -1;
  await expect
    .poll(async () => {
      const counts = (await (await page.request.get(`${server}/api/me/unread`)).json()) as {
        counts: Record<string, number>;
        total: number;
      };
      total = counts.total;
      return counts.counts.messages ?? 0;
    })
    .toBe(messages);
  if (total === 0) {
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(mailboxLink(page)).toHaveAccessibleName('Mailbox');
  } else {
    await expect(page.getByTestId('unread-badge')).toHaveText(String(total));
    await expect(mailboxLink(page)).toHaveAccessibleName(new RegExp(`^Mailbox\\s*, ${total} unread$`));
  }
  return total;
}

let two: AppServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(6 * 60_000); // a cold start on a busy machine
  two = await startAppServer({
    port: await freePort(),
    databaseUrl: databaseUrl!,
    dataDir: process.env.E2E_DATA_DIR!,
    oidcUrl: process.env.E2E_OIDC_URL!,
    seedDemo: false,
    logName: 'e2e-server-2.log',
  });
});

test.afterAll(async () => {
  await two?.stop();
});

test('Ada on server 1 and Bea on server 2 converse live; Bea’s unread badge follows', async ({ browser }) => {
  const ada = await createVerifiedUser({ firstName: 'Adaline', lastName: 'One' });
  const bea = await createVerifiedUser({ firstName: 'Beatrix', lastName: 'Two' });
  const contexts: BrowserContext[] = [];
  try {
    const adaContext = await browser.newContext({ baseURL: BASE_URL });
    const beaContext = await browser.newContext({ baseURL: two!.url });
    contexts.push(adaContext, beaContext);
    await logIn(adaContext, ada);
    // Bea signs in on server 2 itself, with server 2's origin.
    const signIn = await beaContext.request.post(`${two!.url}/api/accounts/sign-in`, {
      data: { email: bea.email, password: bea.password },
      headers: { origin: two!.url },
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    const adaPage = await adaContext.newPage();
    const beaPage = await beaContext.newPage();

    // Each tab's pages and socket are served by its own process.
    expect(await openWithSocket(adaPage, `/mailbox/${bea.id}`)).toBe(new URL(BASE_URL).host);
    expect(new URL(adaPage.url()).origin).toBe(BASE_URL);
    expect(await openWithSocket(beaPage, '/mailbox')).toBe(new URL(two!.url).host);
    expect(new URL(beaPage.url()).origin).toBe(two!.url);
    await expect(mailboxLink(beaPage)).toHaveAccessibleName('Mailbox');

    // Ada writes on server 1: Bea's badge on server 2 counts it, and her list shows it, without a reload.
    await composer(adaPage).fill('Hello from server one');
    await composer(adaPage).press('Enter');
    await expect(thread(adaPage).getByText('Hello from server one')).toBeVisible();
    expect(await badgeFollows(beaPage, two!.url, 1)).toBeGreaterThanOrEqual(1);
    const row = beaPage.getByRole('list', { name: 'Conversations' }).getByRole('link').filter({ hasText: ada.lastName });
    await expect(row).toContainText('Hello from server one');

    // Bea opens the thread: the message is there and read, the badge drops it.
    await row.click();
    await expect(beaPage).toHaveURL(new RegExp(`/mailbox/${ada.id}$`));
    await expect(thread(beaPage).getByText('Hello from server one')).toBeVisible();
    await badgeFollows(beaPage, two!.url, 0);
    await expect(thread(adaPage).getByText('Read')).toBeVisible();

    // Both threads open: Ada's next message appears in Bea's thread, Bea's reply in Ada's.
    await composer(adaPage).fill('Are you on the other server?');
    await composer(adaPage).press('Enter');
    await expect(thread(beaPage).getByText('Are you on the other server?')).toBeVisible();
    await composer(beaPage).fill('Yes, server two here');
    await composer(beaPage).press('Enter');
    await expect(thread(beaPage).getByText('Yes, server two here')).toBeVisible();
    await expect(thread(adaPage).getByText('Yes, server two here')).toBeVisible();

    // Nothing needed a reload: the order is the same on both sides.
    const bodies = (page: Page) => thread(page).locator('li .whitespace-pre-wrap').allInnerTexts();
    const expected = ['Hello from server one', 'Are you on the other server?', 'Yes, server two here'];
    await expect.poll(() => bodies(adaPage)).toEqual(expected);
    await expect.poll(() => bodies(beaPage)).toEqual(expected);
    // Bea read Ada's latest message in her open thread: no unread message on her badge.
    await badgeFollows(beaPage, two!.url, 0);
  } finally {
    for (const context of contexts) await context.close();
  }
});
