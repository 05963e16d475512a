import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import { fitsNarrowScreen, seriousViolations } from './checks';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn, payWithCard } from './support';

/**
 * Family accounts, the money side, in the browser (issue 26 part 3, ADR 0074): a parent's
 * checkout for two children with an educator's code in installments. The page shows the price
 * times the learners, the code's effect and the schedule on the total; the card form charges
 * the first installment of the total; the payment history says whom it was for. The money to
 * the cent, the concurrency and the drop of one learner are the API tests
 * (tests/api/payments/family-checkout.test.ts). "Who is this for?" and the learner profiles'
 * settings are other work: the children are made in the run's database here and the page is
 * opened with them in its address, as that step hands them over.
 */

async function checkPage(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await seriousViolations(page, { exclude: 'iframe' }), `axe on ${name} at ${width}`).toEqual([]);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `test-results/family-${name}-${width}.png`, fullPage: true });
  }
  await fitsNarrowScreen(page, 'family', name);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Learner profiles of an account, in the run's own database (E2E_DATABASE_URL). */
async function children(accountId: string, ...names: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    const ids: string[] = [];
    for (const name of names) {
      const r = await client.query<{ id: string }>(
        `insert into learner_profile (account_id, first_name, age_min, age_max, ages_as_of) values ($1, $2, 9, 9, current_date) returning id`,
        [accountId, name],
      );
      ids.push(r.rows[0].id);
    }
    return ids;
  } finally {
    await client.end();
  }
}

test('a parent pays for two children with a code in installments: the price times the learners, the schedule on the total', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { api, user: educator } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  await enablePayouts(api, educator);
  const course = await createPaidCourse(api, { priceCents: 10001, installments: 3, title: `Kite making ${Date.now() % 100000}` });
  const code = `KITES${Date.now() % 100000}`;
  const made = await api.post('/api/educator/promo-codes', {
    kind: 'percent',
    percentOff: 15,
    code,
    courseId: course.courseId,
    startsAt: new Date(Date.now() - 86400_000).toISOString(),
    endsAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    maxUses: 10,
  });
  expect(made.status, made.text).toBe(200);

  const parent = await createVerifiedUser({ firstName: 'Grace', lastName: 'Parent' });
  const kids = await children(parent.id, 'Mia', 'Leo');
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(context, parent);

  await test.step('the checkout says whom the seats are for and the price times them', async () => {
    await page.goto(`/course/checkout?course=${course.courseId}&session=${course.sessionId}&learners=${kids.join(',')}`);
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order summary' });
    const learners = summary.getByTestId('learner-lines');
    await expect(learners).toContainText('Mia, Leo');
    await expect(learners).toContainText('$100.01 × 2 learners');
    await expect(learners).toContainText('$200.02');
    await expect(page.getByRole('radio', { name: /Pay in full/ })).toBeVisible();
    await expect(page.getByText('$200.02 today').first()).toBeVisible();
  });

  await test.step('the code applies to the total; the installments divide it to the cent', async () => {
    await page.getByRole('button', { name: 'Have a promo code?' }).click();
    await page.getByLabel('Promo code').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    // 15 % of $200.02 is $30.003: $30.00 off, $170.02 to pay.
    await expect(page.getByRole('status').filter({ hasText: `Code ${code} applied: 15% off, you pay $170.02` })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByTestId('promo-lines')).toContainText('−$30.00');
    await page.getByRole('radio', { name: /3 monthly installments/ }).check();
    await expect(page.getByText('$56.68 today, $170.02 in total').first()).toBeVisible();
    await expect(page.getByTestId('installment-terms')).toContainText('$56.68 first, then $56.67 a month');
    const form = page.frameLocator('iframe[title="Secure card payment"]');
    await expect(form.getByRole('button', { name: 'Subscribe — $56.68' })).toBeVisible();
    await checkPage(page, 'checkout');
  });

  await test.step('4242 pays the first installment; the payment history names the children', async () => {
    await payWithCard(page, TEST_CARDS.success);
    await expect(page).toHaveURL(/\/course\/checkout\/complete\?session_id=/);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await page.goto('/user/settings');
    const history = page.getByRole('list', { name: 'Payments' });
    await expect(async () => {
      await page.reload();
      await expect(history).toContainText(`${course.title} (for Mia, Leo)`, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expect(history).toContainText('$56.68');
  });
  await context.close();
});
