import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, logIn, signedInClient } from './support';
import { createClub } from '../support/club-data';
import { scrollWidth, seriousViolations } from './checks';

/**
 * Issue 23, item 1: notifications have their own way in (a bell in the app shell's header at
 * every width, and an item of the phone menu) with their own unread count, kept apart from
 * the Mailbox badge (unread conversations), both live over the tab's socket.
 */

const mailboxLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Mailbox/ });
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

async function checkAt(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 800 });
  expect(await seriousViolations(page), `axe on ${name} at ${width}px`).toEqual([]);
  await expect.poll(() => scrollWidth(page), { message: `${name} fits ${width}px` }).toBeLessThanOrEqual(width);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-bell-${name}-${width}.png` });
}

test('the bell leads to notifications and counts them; the Mailbox badge counts unread conversations', async ({ page, context }) => {
  const olga = await createVerifiedUser({ firstName: 'Olga', lastName: 'Owner' });
  const ines = await createVerifiedUser({ firstName: 'Ines', lastName: 'Asker' });
  await logIn(context, olga);
  const olgaApi = await signedInClient(olga);
  const inesApi = await signedInClient(ines);
  const socketReady = page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'))
    .then((ws) => ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"')));
  await page.goto('/explore');
  await socketReady;
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(mailboxLink(page)).toHaveAccessibleName('Mailbox');

  await test.step('three messages in one conversation: Mailbox says 1, the bell nothing', async () => {
    for (const body of ['Hello', 'Are you there?', 'About the club']) {
      const sent = await inesApi.post(`/api/mailbox/conversations/${olga.id}/messages`, { body, clientId: randomUUID() });
      expect(sent.status, sent.text).toBe(201);
    }
    await expect(mailboxLink(page)).toHaveAccessibleName(/^Mailbox\s*, 1 unread$/);
    await expect(page.getByTestId('unread-badge')).toHaveText('1');
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
  });

  await test.step('a request to join her club: the bell says 1, live; Mailbox still 1', async () => {
    const clubId = await createClub(olgaApi.send, { name: 'Endgame Study Group', visibility: 'approval', joinQuestion: 'Why?' });
    const asked = await inesApi.post(`/api/clubs/${clubId}/join`, { answer: 'Rook endings' });
    expect(asked.status, asked.text).toBe(200);
    await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(page.getByTestId('notifications-badge')).toHaveText('1');
    await expect(page.getByTestId('unread-badge')).toHaveText('1');
    await expect(page).toHaveTitle(/^\(2\) /);
    await checkAt(page, 1280, 'counts');
  });

  await test.step('on a phone: the bell stays in the header, and the menu has Notifications with its count', async () => {
    await checkAt(page, 390, 'counts');
    await expect(bell(page)).toBeVisible();
    await page.getByRole('button', { name: 'Open menu, 2 unread' }).click();
    const menu = page.locator('#mobile-nav');
    await expect(menu.getByRole('link', { name: /^Mailbox\s*, 1 unread$/ })).toBeVisible();
    await expect(menu.getByRole('link', { name: /^Notifications\s*, 1 unread$/ })).toBeVisible();
    await checkAt(page, 390, 'menu');
    await menu.getByRole('link', { name: /^Notifications/ }).click();
    await expect(page).toHaveURL(/\/mailbox\/notifications$/);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('the bell opens the list (the current page: not Mailbox); reading the notification clears the bell only', async () => {
    await page.goto('/explore');
    await bell(page).click();
    await expect(page).toHaveURL(/\/mailbox\/notifications$/);
    await expect(bell(page)).toHaveAttribute('aria-current', 'page');
    await expect(mailboxLink(page)).not.toHaveAttribute('aria-current', 'page');
    // The page counts as the header does: the bell's one, and the Mailbox's conversation apart.
    await expect(page.getByText('1 unread · 1 unread conversation in your Mailbox', { exact: true })).toBeVisible();
    await checkAt(page, 1280, 'list');
    await page.getByRole('link', { name: /asked to join Endgame Study Group/ }).click();
    await expect(page.getByRole('heading', { name: /asked to join Endgame Study Group/, level: 1 })).toBeVisible();
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
    await expect(mailboxLink(page)).toHaveAccessibleName(/^Mailbox\s*, 1 unread$/);
  });
});
