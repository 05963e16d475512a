import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { fitsNarrowScreen, scrollWidth, seriousViolations } from './checks';
import { createVerifiedUser, logIn, signedInClient } from './support';
import { clubBody, createClub, createClubEvents } from '../support/club-data';

/** The demo admin (src/server/seed/demo-users.ts; the e2e server seeds demo data). */
const DEMO_ADMIN = { email: 'admin@agora.local', password: 'Agora-demo-2026' };

test('an admin finds a club by its owner, opens it and deletes it with a reason; the audit log names it', async ({ page }) => {
  const owner = await createVerifiedUser();
  const api = await signedInClient(owner);
  const name = `Counterfeit Boards ${randomUUID().slice(0, 6)}`;
  const clubId = await createClub(api.send, clubBody({ name }));
  await createClubEvents(api.send, clubId, { title: 'Bring your own fakes' });

  await logIn(page.context(), DEMO_ADMIN);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Clubs' }).click();
  await expect(page).toHaveURL(/section=clubs/);
  await page.getByLabel("Club name, or the owner's name or email").fill(owner.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('listitem').filter({ hasText: owner.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('1 member · 1 event (1 to come)');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`club=${clubId}`));
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Bring your own fakes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await expect.poll(() => scrollWidth(page), { message: `fits ${width} px` }).toBeLessThanOrEqual(width);
    if (width === 390) await fitsNarrowScreen(page, 'admin-clubs', 'club');
    else if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-admin-clubs-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Delete club…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name of the club').fill('Not the name');
  await dialog.getByLabel('Reason (for the audit log)').fill('Selling counterfeit boards');
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(dialog.getByText('Type the club name exactly to confirm')).toBeVisible();
  await dialog.getByLabel('Name of the club').fill(name);
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-admin-clubs-dialog.png' });
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByText(`${name} is deleted; attendees of its events to come are told.`)).toBeVisible();
  await expect(page.getByText('No club matches this search.')).toBeVisible();
  await expect(page).not.toHaveURL(/club=/);

  await page.getByRole('link', { name: 'Audit log' }).click();
  const entry = page.getByRole('listitem').filter({ hasText: '“Selling counterfeit boards”' });
  await expect(entry).toContainText(`delete club ${name}`);
});

test('the read-only lists share one card: both report lists and refunds owed load, with their empty lines', async ({ page }) => {
  await logIn(page.context(), DEMO_ADMIN);
  await page.goto('/admin?section=reports');
  await expect(page.getByRole('heading', { name: 'Reported messages', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reported classroom posts', level: 2 })).toBeVisible();
  await expect(page.getByText(/^No reported (messages|classroom posts)\.$|reported by/).first()).toBeVisible();
  await page.getByRole('link', { name: 'Refunds owed' }).click();
  await expect(page.getByRole('heading', { name: 'Refunds owed', level: 2 })).toBeVisible();
  await expect(page.getByText(/^No refunds owed\.$| attempts/).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a club owner opening the Clubs section sees the not-found page', async ({ page }) => {
  const owner = await createVerifiedUser();
  await createClub((await signedInClient(owner)).send, clubBody({ name: `Owned ${randomUUID().slice(0, 6)}` }));
  await logIn(page.context(), owner);
  await page.goto('/admin?section=clubs');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin', exact: true })).toHaveCount(0);
});
