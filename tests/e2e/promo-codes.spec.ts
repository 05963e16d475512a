import { expect, test, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import { fitsNarrowScreen, seriousViolations } from './checks';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn, payWithCard } from './support';

/**
 * Promo codes in the browser (issue 26.2, ADR 0070): an educator creates a code for their
 * course on /educator/promo-codes; a learner enters it at checkout, sees the new price (and
 * the installments adding up to it) before paying, and pays with 4242 in installments; the
 * educator sees the use and the revenue. The refusals, the concurrency and the money to the
 * cent are the API tests (tests/api/payments/promo-codes.test.ts).
 */

/** Axe (the card form's frame is the provider's page) at 1280 and 390 px, and no sideways scroll. */
async function checkPage(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await seriousViolations(page, { exclude: 'iframe' }), `axe on ${name} at ${width}`).toEqual([]);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `test-results/promo-${name}-${width}.png`, fullPage: true });
  }
  await fitsNarrowScreen(page, 'promo', name);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an educator creates a code; a learner applies it at checkout, sees the new price and pays in installments', async ({ browser }) => {
  const { api, user: educator } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  await enablePayouts(api, educator);
  const course = await createPaidCourse(api, { priceCents: 10000, installments: 3, title: `Pressed flowers ${Date.now() % 100000}` });
  const code = `BLOOM${Date.now() % 100000}`;

  const educatorContext = await browser.newContext();
  const educatorPage = await educatorContext.newPage();
  await logIn(educatorContext, educator);

  await test.step('the educator creates a 15 % code for the course', async () => {
    await educatorPage.goto('/educator/promo-codes');
    await expect(educatorPage.getByRole('heading', { name: 'Promo codes', level: 1 })).toBeVisible();
    await expect(educatorPage.getByText(/No codes yet/)).toBeVisible();
    await checkPage(educatorPage, 'educator-empty');
    await educatorPage.getByLabel('Course').selectOption({ label: `${course.title} ($100.00)` });
    // The form says what is missing before sending.
    await educatorPage.getByRole('button', { name: 'Create code' }).click();
    await expect(educatorPage.getByText('Percent off is required')).toBeVisible();
    await educatorPage.getByLabel('Percent off (1 to 90)').fill('15');
    await educatorPage.getByLabel('Code (optional)').fill(code);
    await educatorPage.getByRole('button', { name: 'Create code' }).click();
    await expect(educatorPage.getByText(`Code ${code} created`)).toBeVisible();
    const row = educatorPage.getByRole('listitem', { name: code });
    await expect(row).toContainText('15% off');
    await expect(row.getByTestId('promo-used')).toHaveText('0 of 50');
    await checkPage(educatorPage, 'educator-list');
  });

  const learner = await createVerifiedUser({ firstName: 'Ada', lastName: 'Byron' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(context, learner);

  await test.step('the learner enters the code at checkout and sees the new price, once and in installments', async () => {
    await page.goto(`/course/checkout?course=${course.courseId}&session=${course.sessionId}`);
    await expect(page.getByRole('radio', { name: /Pay in full/ })).toBeVisible();
    await page.getByRole('button', { name: 'Have a promo code?' }).click();
    // A code that does not exist: refused with words a person understands.
    await page.getByLabel('Promo code').fill('NOT-A-REAL-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This code does not exist' })).toBeVisible();
    await page.getByLabel('Promo code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Code ${code} applied: 15% off, you pay $85.00` })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByTestId('promo-lines')).toContainText('$100.00');
    await expect(summary.getByTestId('promo-lines')).toContainText('−$15.00');
    await expect(summary).toContainText('$85.00');
    await expect(page.getByRole('radio', { name: /Pay in full/ })).toBeVisible();
    await page.getByRole('radio', { name: /3 monthly installments/ }).check();
    await expect(page.getByText('$28.34 today, $85.00 in total').first()).toBeVisible();
    await expect(page.getByTestId('installment-terms')).toContainText('$28.34 first, then $28.33 a month');
    const form = page.frameLocator('iframe[title="Secure card payment"]');
    await expect(form.getByRole('heading', { name: 'Subscribe' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Subscribe — $28.34' })).toBeVisible();
    await expect(form.getByText('−$5.00')).toBeVisible();
    await expect(form.getByText('Then $28.33 per month')).toBeVisible();
    await checkPage(page, 'checkout-with-code');
  });

  await test.step('4242 pays the first installment', async () => {
    await payWithCard(page, TEST_CARDS.success);
    await expect(page).toHaveURL(/\/course\/checkout\/complete\?session_id=/);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/\$28\.34 paid today, the first of 3 monthly installments/)).toBeVisible();
  });

  await test.step('the educator sees the use and the revenue', async () => {
    await expect(async () => {
      await educatorPage.reload();
      const row = educatorPage.getByRole('listitem', { name: code });
      await expect(row.getByTestId('promo-used')).toHaveText('1 of 50', { timeout: 2_000 });
      await expect(row.getByTestId('promo-revenue')).toHaveText('$28.34', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  });
  await educatorContext.close();
  await context.close();
});

test('an admin creates a platform code in the console and ends it', async ({ page, context }) => {
  // The demo admin (src/server/seed/demo-users.ts; the e2e server seeds demo data).
  await logIn(context, { email: 'admin@agora.local', password: 'Agora-demo-2026' });
  await page.goto('/admin?section=promo');
  await expect(page.getByRole('heading', { name: 'New platform code' })).toBeVisible();
  await page.getByRole('radio', { name: /Amount off/ }).check();
  await page.getByRole('textbox', { name: 'Amount off in USD' }).fill('5.00');
  const code = `WELCOME${Date.now() % 100000}`;
  await page.getByLabel('Code (optional)').fill(code);
  await page.getByRole('button', { name: 'Create platform code' }).click();
  await expect(page.getByText(`Code ${code} created`)).toBeVisible();
  const row = page.getByRole('listitem', { name: code });
  await expect(row).toContainText('$5.00 off');
  await expect(row).toContainText('Every course priced in USD, one payment');
  await checkPage(page, 'admin');
  await row.getByRole('button', { name: `End code ${code} now` }).click();
  await expect(row).toContainText('Ended');
});
