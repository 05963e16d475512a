import { expect, test } from '@playwright/test';
import { type ApiClient, createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn } from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';

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

/**
 * Educator Pro's "Featured placement on /explore" (decision 0037): once the plan is paid,
 * the educator's upcoming course is on the "Featured" shelf, set apart and labelled; the
 * shelf passes axe and fits a 360 px phone. With AGORA_SHOTS=1 the page is screenshot.
 */
test('an Educator Pro course is featured on /explore', async ({ page, context }) => {
  const { api, user } = await createEducator({ firstName: 'Priya', lastName: 'Featured' });
  await enablePayouts(api, user);
  const course = await createPaidCourse(api, { title: 'Mosaic tiles, featured', priceCents: 4500, startsIn: 2 });
  await buyEducatorPro(api);

  await logIn(context, await createVerifiedUser({ firstName: 'Lena', lastName: 'Learner' }));
  await page.goto('/explore');
  const featured = page.getByRole('region', { name: 'Featured' });
  await expect(featured).toBeVisible();
  await expect(featured.getByRole('link', { name: /Educator Pro/ })).toHaveAttribute('href', '/pricing');
  await expect(featured.getByRole('list', { name: 'Featured' }).locator(`a[href="/course/${course.courseId}"]`).first()).toBeVisible();
  // Featured first; the course is not repeated on the shelves below.
  await expect(page.locator('section[aria-labelledby]').first()).toHaveAttribute('aria-labelledby', 'featured');
  await expect(page.locator(`a[href="/course/${course.courseId}"]`)).not.toHaveCount(0);
  const elsewhere = page.locator(`section:not([aria-labelledby="featured"]) a[href="/course/${course.courseId}"]`);
  await expect(elsewhere).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await fitsNarrowScreen(page, 'explore', 'featured');
});

/** Educator Pro bought behind the scenes (the plan checkout, paid on the sandbox's form); waits for the plan. */
async function buyEducatorPro(api: ApiClient) {
  const config = await api.get('/api/stripe/config');
  expect(config.status, config.text).toBe(200);
  const checkout = await api.post('/api/stripe/create-embedded-checkout-session', {
    customer: config.json<{ customer: string }>().customer,
    product: 'educator-pro',
    price: 2900,
  });
  expect(checkout.status, checkout.text).toBe(200);
  const { sessionId, clientSecret } = checkout.json<{ sessionId: string; clientSecret: string }>();
  const paid = await api.post(`/sandbox/api/checkout/${sessionId}/confirm`, {
    client_secret: clientSecret,
    number: '4242 4242 4242 4242',
    exp: '12/34',
    cvc: '123',
    name: 'Priya Featured',
  });
  expect(paid.status, paid.text).toBeLessThan(300);
  await expect
    .poll(async () => (await api.get('/api/educator/payouts')).json<{ plan: { id: string } }>().plan.id, { timeout: 30_000 })
    .toBe('educator-pro');
}
