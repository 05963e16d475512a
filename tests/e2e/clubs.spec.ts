import { expect, test, type Page } from '@playwright/test';
import { ApiClient, collectDialogs, createVerifiedUser, dayFromNow, logIn, signedInClient } from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';
import { clubBody, createClub, createClubEvents, joinClub } from '../support/club-data';
import { UNKNOWN_ID } from '../support/test-data';

/**
 * Clubs in the browser: a user starts a club, a second finds it by searching with a typo
 * and joins, the owner plans an event for one, the member answers going, a third member is
 * waitlisted and promoted when the member cancels; an approval club hides its events from
 * a non-member until approved; user text never runs script; screens at 1280 and 390 px, axe clean.
 */
test.use({ timezoneId: 'Europe/Lisbon' });

function uniqueWord(): string {
  const pick = (letters: string) => letters[Math.floor(Math.random() * letters.length)];
  let w = '';
  for (let i = 0; i < 5; i++) w += pick('bdfgklmnprstvz') + pick('aeiou');
  return w[0].toUpperCase() + w.slice(1);
}
const typo = (word: string) => word.slice(0, 4) + word[5] + word[4] + word.slice(6);

async function axeClean(page: Page, name: string) {
  expect(await seriousViolations(page), `${name}: axe`).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await seriousViolations(page), `${name} at 390 px: axe`).toEqual([]);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-clubs-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-clubs-${name}.png`, fullPage: true });
  await fitsNarrowScreen(page, 'clubs', name);
}

test('start a club, find it with a typo, join, RSVP to a full event, waitlist and promotion', async ({ browser }) => {
  const word = uniqueWord();
  const [owner, member, third] = await Promise.all([createVerifiedUser(), createVerifiedUser(), createVerifiedUser()]);

  // The owner starts the club in the browser.
  const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(ownerCtx, owner);
  const o = await ownerCtx.newPage();
  await o.goto('/club/new');
  await expect(o.getByRole('heading', { name: 'Start a club' })).toBeVisible();
  await axeClean(o, 'new-club');
  await o.getByRole('button', { name: 'Start the club' }).click();
  await expect(o.getByText('Please correct the fields marked below.')).toBeVisible();
  await expect(o.getByText('Choose a category')).toBeVisible();
  await o.getByLabel('Name').fill(`${word} Board Games`);
  await o.getByLabel('About the club (Markdown)').fill(`We play **board games** on ${word} evenings. Everyone welcome.`);
  await o.getByRole('button', { name: 'Preview' }).click();
  await expect(o.locator('strong', { hasText: 'board games' })).toBeVisible();
  await o.getByRole('button', { name: 'Write' }).click();
  await o.getByLabel('Category').selectOption('social');
  await o.getByLabel('City').fill('Lisbon');
  await o.getByRole('button', { name: 'Start the club' }).click();
  await expect(o.getByRole('heading', { level: 1, name: `${word} Board Games` })).toBeVisible();
  await expect(o.getByText('You own this club')).toBeVisible();
  const clubId = /\/club\/([0-9a-f-]{36})$/.exec(o.url())![1];

  // A second user finds it by searching with a typo, and joins.
  const memberCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(memberCtx, member);
  const m = await memberCtx.newPage();
  await m.goto('/club/search');
  await m.getByLabel('Search clubs').fill(typo(word).toLowerCase());
  await m.getByRole('button', { name: 'Search' }).click();
  await expect(m).toHaveURL(new RegExp(`q=${typo(word).toLowerCase()}`));
  await expect(m.getByText('we corrected the spelling')).toBeVisible();
  await m.getByRole('link', { name: `${word} Board Games` }).click();
  await m.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(m.getByText('Member', { exact: true })).toBeVisible();
  await expect(m.getByText('2 members')).toBeVisible();

  // The owner plans an event for one person.
  await o.getByRole('link', { name: 'New event' }).click();
  await expect(o.getByRole('heading', { name: 'New event' })).toBeVisible();
  await o.getByLabel('Title').fill('Catan night');
  await o.getByLabel('Date').fill(dayFromNow(6));
  await o.getByLabel('Starts at').fill('19:30');
  await o.getByLabel('Ends at').fill('22:00');
  const zone = o.getByRole('combobox', { name: 'Time zone' });
  await zone.fill('lisbon');
  await o.getByRole('option', { name: /^Lisbon \(GMT\+[01]\)/ }).click();
  await expect(zone).toHaveValue(/^Lisbon \(GMT\+[01]\)$/);
  await o.getByLabel('Address').fill('Rua Augusta 10, Lisbon');
  await o.getByLabel('Capacity (optional)').fill('1');
  await o.getByRole('button', { name: 'Create the event' }).click();
  await expect(o.getByRole('heading', { level: 1, name: 'Catan night' })).toBeVisible();
  await expect(o.getByText('(Europe/Lisbon)').first()).toBeVisible();
  await expect(o.getByRole('link', { name: /Map/ })).toHaveAttribute('href', /openstreetmap/);
  const eventUrl = o.url();

  // The member answers going: the event is full.
  await m.goto(eventUrl);
  await m.getByRole('button', { name: 'Going', exact: true }).click();
  await expect(m.getByText("You're going", { exact: true }).first()).toBeVisible();
  await expect(m.getByText('1 of 1 places taken')).toBeVisible();
  await axeClean(m, 'event');

  // A third member is waitlisted, then promoted when the member cancels.
  const thirdApi = await signedInClient(third);
  await joinClub(thirdApi.send, clubId);
  const thirdCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(thirdCtx, third);
  const t = await thirdCtx.newPage();
  await t.goto(eventUrl);
  await expect(t.getByText('The event is full')).toBeVisible();
  await t.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(t.getByText("You're on the waitlist: number 1")).toBeVisible();
  await m.reload();
  await m.getByRole('button', { name: 'Cancel: not going' }).click();
  await expect(m.getByText("You're not going", { exact: true }).first()).toBeVisible();
  await t.reload();
  await expect(t.getByText("You're going", { exact: true }).first()).toBeVisible();

  // The organiser sees the attendee list and the tools; the club page lists the event.
  await o.reload();
  await expect(o.getByRole('link', { name: 'Export attendees (CSV)' })).toBeVisible();
  await expect(o.getByRole('heading', { name: 'Going (1)' })).toBeVisible();
  await o.goto(`/club/${clubId}`);
  await expect(o.getByRole('link', { name: 'Catan night' })).toBeVisible();
  await axeClean(o, 'club');
  await o.goto(`/club/${clubId}/edit`);
  await expect(o.getByRole('heading', { name: 'Manage the club' })).toBeVisible();
  await axeClean(o, 'edit-settings');
  await o.getByRole('tab', { name: 'Delete' }).click();
  await axeClean(o, 'edit-delete');
  await o.getByRole('tab', { name: 'Members' }).click();
  await expect(o.getByRole('link', { name: /^Message/ }).first()).toHaveAttribute('href', /\/mailbox\//);
  await axeClean(o, 'edit-members');
  await m.goto('/club/search?q=zzqxv');
  await expect(m.getByText('No club like this yet')).toBeVisible();
  await axeClean(m, 'search-empty');
  await m.goto(`/club/search?q=${word.toLowerCase()}`);
  await expect(m.getByRole('link', { name: `${word} Board Games` })).toBeVisible();
  await axeClean(m, 'search');
  // Not an organiser: the new-event screen is not found.
  await m.goto(`/club/${clubId}/new-event`);
  await expect(m.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await Promise.all([ownerCtx.close(), memberCtx.close(), thirdCtx.close()]);
});

test('a repeat that ends on a date: "every second Tuesday 19:00 for 6 months", previewed, then created', async ({ browser }) => {
  const owner = await createVerifiedUser();
  const api = await signedInClient(owner);
  const clubId = await createClub(api.send, clubBody({ name: `Second Tuesday Chess ${uniqueWord()}` }));
  // The second Tuesday of each of six months from next month, found independently of the app.
  const now = new Date();
  const secondTuesdays = Array.from({ length: 7 }, (_, k) => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1 + k, 1));
    return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1 + ((2 - first.getUTCDay() + 7) % 7) + 7));
  });
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const shown = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  // Six months: the day before the seventh month's second Tuesday is safely past the sixth.
  const lastDay = iso(new Date(secondTuesdays[6].getTime() - 7 * 86400_000));

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(ctx, owner);
  const page = await ctx.newPage();
  await page.goto(`/club/${clubId}/new-event`);
  await expect(page.getByRole('heading', { name: 'New event' })).toBeVisible();
  await page.getByLabel('Title').fill('Second Tuesday rapid');
  await page.getByLabel('Date', { exact: true }).fill(iso(secondTuesdays[0]));
  await page.getByLabel('Starts at').fill('19:00');
  await page.getByLabel('Ends at').fill('21:00');
  await page.getByLabel('Address').fill('Rua Augusta 10, Lisbon');
  await page.getByLabel('How often').selectOption('monthly');
  await expect(page.getByLabel('How often').locator('option:checked')).toHaveText('Monthly, on the second Tuesday');
  await page.getByLabel('Ends', { exact: true }).selectOption('until');
  // An end before the start: the field says so, nothing is created.
  await page.getByLabel('Last date (included)').fill(iso(new Date(secondTuesdays[0].getTime() - 86400_000)));
  await page.getByRole('button', { name: 'Create the event' }).click();
  await expect(page.getByText('The end date must be on or after the first event')).toBeVisible();
  await page.getByLabel('Last date (included)').fill(lastDay);
  const preview = page.getByTestId('repeat-preview');
  await expect(preview).toContainText('6 events, each 19:00–21:00');
  await expect(preview.getByRole('listitem')).toHaveText(secondTuesdays.slice(0, 6).map((d) => shown.format(d)));
  await axeClean(page, 'new-event-repeat');
  await page.getByRole('button', { name: 'Create the event' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Second Tuesday rapid' })).toBeVisible();
  await expect(page.getByText('6 events created')).toBeVisible();
  const club = (await api.get(`/api/clubs/${clubId}`)).json<{ upcomingEvents: { startsAt: string }[] }>();
  expect(
    club.upcomingEvents.map((e) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(e.startsAt))),
  ).toEqual(secondTuesdays.slice(0, 6).map(iso));
  await ctx.close();
});

test('an approval club hides its events from a non-member until approved', async ({ browser }) => {
  const [owner, visitor] = await Promise.all([createVerifiedUser(), createVerifiedUser()]);
  const ownerApi = await signedInClient(owner);
  const clubId = await createClub(
    ownerApi.send,
    clubBody({ name: `Quiet Go Circle ${uniqueWord()}`, visibility: 'approval', joinQuestion: 'Your rank?' }),
  );
  const [eventId] = await createClubEvents(ownerApi.send, clubId, { title: 'Members-only tournament' });

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(ctx, visitor);
  const page = await ctx.newPage();
  await page.goto(`/club/${clubId}`);
  await expect(page.getByRole('heading', { level: 1, name: /Quiet Go Circle/ })).toBeVisible();
  await expect(page.getByText('Members only')).toBeVisible();
  await expect(page.getByText('Members-only tournament')).toHaveCount(0);
  await axeClean(page, 'club-members-only');
  await page.goto(`/club/${clubId}/event/${eventId}`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();

  await page.goto(`/club/${clubId}`);
  await page.getByRole('button', { name: 'Request to join' }).click();
  await page.getByLabel('Your rank?').fill('5 kyu');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Pending approval')).toBeVisible();
  await expect(page.getByText('Members-only tournament')).toHaveCount(0);

  const members = (await ownerApi.get(`/api/clubs/${clubId}/members`)).json<{ requests: { id: string; answer: string }[] }>();
  expect(members.requests.map((r) => r.answer)).toEqual(['5 kyu']);
  expect((await ownerApi.post(`/api/clubs/${clubId}/members/${members.requests[0].id}`, { action: 'approve' })).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('link', { name: 'Members-only tournament' })).toBeVisible();
  await ctx.close();
});

test('club and event text never runs script; an unknown club is the not-found page', async ({ browser }) => {
  const owner = await createVerifiedUser();
  const api = await signedInClient(owner);
  const clubId = await createClub(
    api.send,
    clubBody({
      name: `<script>alert("name")</script> Club`,
      description:
        '<script>alert("script ran")</script>\n\n<img src=x onerror="alert(\'onerror ran\')">\n\n[click](javascript:alert("link"))',
      rules: '<img src=x onerror="alert(1)">',
    }),
  );
  const [eventId] = await createClubEvents(api.send, clubId, {
    title: '<img src=x onerror="alert(2)">',
    description: '<script>alert(3)</script>',
  });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logIn(ctx, owner);
  const page = await ctx.newPage();
  const dialogs = collectDialogs(page);
  await page.goto(`/club/${clubId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('<script>alert("name")</script> Club');
  await page.goto(`/club/${clubId}/event/${eventId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('onerror');
  await page.goto(`/club/search?q=club`);
  await page.goto('/explore');
  await expect(page.locator('#clubs-shelf')).toBeVisible();
  await axeClean(page, 'explore');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Your clubs and events' })).toBeVisible();
  await axeClean(page, 'dashboard');
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: boolean }).__xss)).toBeUndefined();
  await page.goto(`/club/${UNKNOWN_ID}`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.goto('/club/not-an-id');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await ctx.close();
  void ApiClient;
});
