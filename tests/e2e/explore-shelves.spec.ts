import { expect, test } from '@playwright/test';
import { logIn } from './support';

/**
 * /explore's course shelves show each course once: a shelf leaves out what the shelves above
 * it show (the demo learner in London saw the same four courses under "Near you" and
 * "Starting soon"). The e2e server starts with the demo marketplace (SEED_DEMO).
 */
test('each course shows on one shelf of /explore only', async ({ page, context }) => {
  await logIn(context, { email: 'ada@agora.local', password: 'Agora-demo-2026' });
  await page.goto('/explore');
  await expect(page.getByRole('heading', { name: /^Near you in / })).toBeVisible();
  const shelf = (id: string) =>
    page
      .locator(`section[aria-labelledby="${id}"] article a[href^="/course/"]`)
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  const [nearYou, soon, popular] = [await shelf('near-you'), await shelf('starting-soon'), await shelf('popular')];
  expect(nearYou.length).toBeGreaterThan(0);
  expect(soon.length).toBeGreaterThan(0);
  const all = [...nearYou, ...soon, ...popular];
  expect(new Set(all).size, all.join('\n')).toBe(all.length);
});
