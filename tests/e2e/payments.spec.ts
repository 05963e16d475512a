import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import {
  BASE_URL,
  createEducator,
  createPaidCourse,
  createVerifiedUser,
  enablePayouts,
  logIn,
  payWithCard,
  type PaidCourse,
} from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';

/**
 * Paying for courses in the browser, on the payments sandbox: the checkout page and its card
 * form (the sandbox's form in a frame), the confirmation, installments over a test clock,
 * a declined card, and the educator's side (payouts onboarding, sales net of the fee).
 */

/** The page passes axe and fits 360 px; screenshots on request (AGORA_SHOTS=1), desktop and 360 px. */
async function checkPage(page: Page, name: string) {
  // The card form's frame is the payment provider's (the sandbox's own page, checked apart).
  expect(await seriousViolations(page, { exclude: 'iframe' }), `axe on ${name}`).toEqual([]);
  await fitsNarrowScreen(page, 'payments', name);
}

/** An educator with payouts enabled and one published paid course. */
async function paidCourseOnSale(opts: { priceCents: number; installments?: number | null; title?: string }): Promise<PaidCourse> {
  const { api, user } = await createEducator({ firstName: 'Frida', lastName: 'Kahlo' });
  await enablePayouts(api, user);
  return createPaidCourse(api, opts);
}

/** The learner's enrolment in the course's session, as the course page's API reports it. */
async function myEnrolment(context: BrowserContext, course: PaidCourse): Promise<string | null> {
  const response = await context.request.get(`${BASE_URL}/api/courses/${course.courseId}`);
  expect(response.ok()).toBe(true);
  const view = (await response.json()) as { sessions: { id: string; myEnrolment: { status: string } | null }[] };
  return view.sessions.find((s) => s.id === course.sessionId)?.myEnrolment?.status ?? null;
}

/**
 * Paying is one page: from the course page, Enrol opens the checkout with the order
 * summary, how to pay and the card form at once (no "Continue to payment" step).
 */
async function openCardForm(page: Page, course: PaidCourse, how: 'full' | 'installments' = 'full') {
  await page.goto(`/course/${course.courseId}`);
  await page
    .getByRole('link', { name: /^Enrol in the session of/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/course/checkout\\?course=${course.courseId}&session=${course.sessionId}$`));
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText(course.title);
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
  if (how === 'installments') await page.getByRole('radio', { name: /monthly installments/ }).check();
  const form = page.frameLocator('iframe[title="Secure card payment"]');
  await expect(form.getByLabel('Card number')).toBeVisible();
  await expect(form.getByRole('heading', { name: how === 'installments' ? 'Subscribe' : 'Pay' })).toBeVisible();
}

test('a learner pays once with 4242 and is enrolled; the course is on their dashboard', async ({ page, context }) => {
  const course = await paidCourseOnSale({ priceCents: 10000, installments: 3, title: 'Botanical drawing in ink' });
  await logIn(context, await createVerifiedUser({ firstName: 'Ada', lastName: 'Byron' }));

  await test.step('one page: Enrol opens the order summary, the payment options and the card form together', async () => {
    await openCardForm(page, course);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary).toContainText('Botanical drawing in ink');
    await expect(summary).toContainText('$100.00');
    await expect(summary).toContainText('8 seats left');
    await expect(summary).toContainText('Moderate refund policy');
    await expect(page.getByRole('radio', { name: /Pay in full/ })).toBeChecked();
    await checkPage(page, 'checkout');
  });

  await test.step('installments: the terms are said once, beside the card form, and add up to $100.00', async () => {
    await page.getByRole('radio', { name: /3 monthly installments/ }).check();
    const terms = page.getByTestId('installment-terms');
    await expect(terms).toHaveText(/^3 monthly payments: \$33\.34 first, then \$33\.33 a month, last on \w{3},? \d{1,2} \w{3} \d{4}\.$/);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary).toContainText('$33.34 today');
    await expect(summary).toContainText('$100.00 in total');
    const form = page.frameLocator('iframe[title="Secure card payment"]');
    // The provider's form says what it charges in its own words ("Then $33.33 per month").
    await expect(form.getByText('Then $33.33 per month')).toBeVisible();
    // ... and when it ends (the subscription's description, as Stripe shows it): never open-ended.
    await expect(form.locator('.description')).toHaveText(/: 3 payments in all, the last on \d{4}-\d{2}-\d{2}$/);
    await expect(form.getByText('Due today')).toBeVisible();
    await expect(form.locator('.total')).toContainText('$33.34');
    // "3 monthly payments ..." once on the whole page: not in the summary, the choice or the card form.
    await expect(page.getByText(/monthly payments/)).toHaveCount(1);
    await expect(form.getByText(/monthly payments/)).toHaveCount(0);
    await checkPage(page, 'checkout-installments');
    if (process.env.AGORA_SHOTS) {
      await page.screenshot({ path: 'test-results/money-checkout-installments-1280.png', fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      if (process.env.AGORA_SHOTS) await page.screenshot({ path: 'test-results/money-checkout-installments-390.png', fullPage: true });
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    await page.getByRole('radio', { name: /Pay in full/ }).check();
    await expect(form.getByRole('heading', { name: 'Pay' })).toBeVisible();
  });

  await test.step('4242 pays in the same page', async () => {
    await payWithCard(page, TEST_CARDS.success);
  });

  await test.step('the confirmation says "You\'re enrolled"', async () => {
    await expect(page).toHaveURL(/\/course\/checkout\/complete\?session_id=/);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('$100.00 paid.')).toBeVisible();
    await checkPage(page, 'complete');
    expect(await myEnrolment(context, course)).toBe('active');
  });

  await test.step('the course is on the dashboard, the payment in the settings', async () => {
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expect(page.getByRole('list', { name: 'Your courses' }).getByRole('link', { name: course.title, exact: true })).toBeVisible();
    await page.goto('/user/settings');
    const history = page.getByRole('list', { name: 'Payments' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history).toContainText(course.title);
    await expect(history).toContainText('$100.00');
    await expect(history.getByRole('link', { name: /Receipt/ })).toBeVisible();
    await checkPage(page, 'settings');
  });

  await test.step('dropping before the first class refunds everything, and the drop page says so', async () => {
    await page.goto(`/course/${course.courseId}/session/${course.sessionId}/drop`);
    // Before dropping, the page shows the amount the drop refunds.
    await expect(page.getByText('You get back everything you paid')).toBeVisible();
    await expect(page.getByTestId('refund-due')).toHaveText('$100.00');
    await checkPage(page, 'drop');
    await page.getByRole('button', { name: 'Drop this session' }).click();
    await expect(page.getByRole('heading', { name: 'You have left this session' })).toBeVisible();
    await expect(page.getByText('Refunded in full')).toBeVisible();
    await expect(page.getByText('$100.00', { exact: true })).toBeVisible();
    await checkPage(page, 'drop-refund');
    expect(await myEnrolment(context, course)).toBeNull();
    await page.goto('/user/settings');
    await expect(page.getByRole('list', { name: 'Payments' })).toContainText('Refunded');
  });
});

test('a learner pays in 3 installments; the test clock runs 3 months: 3 invoices paid, the plan ends, still enrolled', async ({
  page,
  context,
}) => {
  const course = await paidCourseOnSale({ priceCents: 9000, installments: 3, title: 'Cello for grown-ups' });
  await logIn(context, await createVerifiedUser({ firstName: 'Jacqueline', lastName: 'Pré' }));

  await openCardForm(page, course, 'installments');
  await payWithCard(page, TEST_CARDS.success);
  await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/\$30\.00 paid today, the first of 3 monthly installments/)).toBeVisible();

  await test.step('settings show the installments: next due date, amount left, and a card change on the provider page', async () => {
    await page.goto('/user/settings');
    const plans = page.getByRole('region', { name: 'Installments' });
    await expect(async () => {
      await page.reload();
      await expect(plans.getByText('1 of 3 paid')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await expect(plans).toContainText(course.title);
    await expect(plans).toContainText(/Next payment\s*\$30\.00 on \w{3},? \d{1,2} \w{3} \d{4}/);
    await expect(plans).toContainText(/Left to pay\s*\$60\.00/);
    await expect(plans).toContainText('Paid with your Visa ending in 4242');
    await checkPage(page, 'settings-installments');
    if (process.env.AGORA_SHOTS) {
      await page.screenshot({ path: 'test-results/money-settings-1280.png', fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      if (process.env.AGORA_SHOTS) await plans.screenshot({ path: 'test-results/money-settings-390.png' });
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    await plans.getByRole('button', { name: 'Change card' }).click();
    await expect(page).toHaveURL(/\/sandbox\/billing\/bps_/);
    await expect(page.getByRole('heading', { name: 'Change your card' })).toBeVisible();
    expect(await seriousViolations(page), 'axe on the card update page').toEqual([]);
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page).toHaveURL(/\/user\/settings\?card=updated#installments$/);
    await expect(page.getByText('Your card is changed')).toBeVisible();
    await expect(plans).toContainText('Paid with your Mastercard ending in 4444');
  });

  const config = await context.request.get(`${BASE_URL}/api/stripe/config`);
  const customer = ((await config.json()) as { customer: string }).customer;
  expect(customer).toBeTruthy();

  await test.step("the sandbox dev dashboard advances the customer's clock a month at a time", async () => {
    await page.goto('/sandbox');
    const row = page.getByRole('row').filter({ hasText: customer }).first();
    for (let month = 1; month <= 3; month++) {
      // The dashboard reloads itself once the clock has moved.
      const reloaded = page.waitForEvent('load');
      await row.getByRole('button', { name: 'Advance 1 month' }).click();
      await expect(page.locator('#dashboard-status')).toContainText('done');
      await reloaded;
    }
  });

  await test.step('three installments are in the payment history; the plan has ended and the seat is kept', async () => {
    await page.goto('/user/settings');
    const history = page.getByRole('list', { name: 'Payments' });
    await expect(async () => {
      await page.reload();
      await expect(history.getByRole('listitem')).toHaveCount(3, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    for (const k of [1, 2, 3]) await expect(history).toContainText(`Installment ${k} of 3`);
    await expect(history.getByText('$30.00')).toHaveCount(3);

    await page.goto('/sandbox');
    const subscription = page.getByRole('region', { name: 'Subscriptions' }).getByRole('row').filter({ hasText: customer });
    await expect(subscription).toContainText('canceled');
    expect(await myEnrolment(context, course)).toBe('active');
    await page.goto('/dashboard');
    await expect(page.getByRole('list', { name: 'Your courses' }).getByRole('link', { name: course.title, exact: true })).toBeVisible();
  });
});

test('a declined card shows the reason and enrols nobody', async ({ page, context }) => {
  const course = await paidCourseOnSale({ priceCents: 5000, title: 'Sourdough weekends' });
  await logIn(context, await createVerifiedUser({ firstName: 'Julia', lastName: 'Child' }));

  await openCardForm(page, course);
  const form = await payWithCard(page, TEST_CARDS.declined);
  await expect(form.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(page).toHaveURL(/\/course\/checkout\?/);
  await checkPage(page, 'checkout-declined');
  expect(await myEnrolment(context, course)).toBeNull();
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: course.title, exact: true })).toHaveCount(0);
});

test('an educator sets up payouts, publishes a paid course, a learner buys it: the sale shows net of the fee', async ({
  page,
  context,
  browser,
}) => {
  const { api, user } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  await logIn(context, user);

  await test.step("onboarding step 2 sends the educator to the provider's onboarding and back", async () => {
    await page.goto('/educator/onboard');
    await expect(page.getByRole('list', { name: 'Onboarding steps' })).toContainText('Set up payouts');
    await checkPage(page, 'onboard');
    await page.getByRole('button', { name: 'Set up payouts' }).click();
    await expect(page).toHaveURL(/\/sandbox\/connect\/onboard\//);
    await page.getByLabel('Legal name').fill('Maria Montessori');
    await page.getByRole('button', { name: 'Agree and submit' }).click();
    await expect(page).toHaveURL(/\/educator\/onboard-success/);
    await expect(page.getByRole('heading', { name: 'Payouts are set up' })).toBeVisible();
    const status = page.getByRole('list', { name: 'Payout account status' });
    await expect(status).toContainText('Charges — enabled');
    await expect(status).toContainText('Payouts — enabled');
    await checkPage(page, 'onboard-success');
  });

  const course = await createPaidCourse(api, { priceCents: 10000, title: 'Montessori at home' });

  await test.step('a learner buys it with 4242', async () => {
    const learnerContext = await browser.newContext();
    const learnerPage = await learnerContext.newPage();
    await logIn(learnerContext, await createVerifiedUser({ firstName: 'Grace', lastName: 'Murray' }));
    await openCardForm(learnerPage, course);
    await payWithCard(learnerPage, TEST_CARDS.success);
    await expect(learnerPage.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await learnerContext.close();
  });

  // The e2e server's fee is 12% (tests/e2e/app-server.ts), not the default.
  await test.step('the educator dashboard shows the sale: $100 - $12 fee = $88', async () => {
    await page.goto('/educator/dashboard');
    const totals = page.getByLabel('Sales totals');
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('table').getByRole('row').filter({ hasText: course.title })).toHaveCount(1, { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    const sale = page.getByRole('table').getByRole('row').filter({ hasText: course.title });
    await expect(sale).toContainText('Grace M.');
    await expect(sale).toContainText('$100.00');
    await expect(sale).toContainText('−$12.00');
    await expect(sale).toContainText('$88.00');
    await expect(totals).toContainText('$88.00');
    await expect(page.getByRole('region', { name: 'Payouts' })).toContainText('Charges — enabled');
    await checkPage(page, 'educator-dashboard');
  });

  await test.step('the roster says how the seat was paid', async () => {
    await page.goto(`/course/${course.courseId}/enrollment`);
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader', { name: 'Payment' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Grace Murray' })).toContainText('Paid');
    await checkPage(page, 'roster');
  });
});

test('pricing: signed in, an educator buys Educator Pro with the card form; the fee drops to 5%', async ({ page, context }) => {
  // /pricing is not among the public paths (spec section 2): a visitor signs in first.
  await page.goto('/pricing');
  await expect(page).toHaveURL(/\/login\?next=%2Fpricing$/);

  const { user, api } = await createEducator({ firstName: 'Rosalind', lastName: 'Franklin' });
  await enablePayouts(api, user);
  await logIn(context, user);
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Educator Pro' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Educator', exact: true })).toContainText('12%');
  await checkPage(page, 'pricing');
  await page.getByRole('button', { name: 'Get Educator Pro' }).click();
  await payWithCard(page, TEST_CARDS.success);
  await expect(page).toHaveURL(/\/pricing\/complete\?session_id=/);
  await expect(page.getByRole('heading', { name: "You're on Educator Pro" })).toBeVisible({ timeout: 30_000 });
  await checkPage(page, 'pricing-complete');
  await page.goto('/educator/dashboard');
  await expect(page.getByRole('region', { name: 'Your plan' })).toContainText('platform fee 5% per sale');
});

test('the benefits page explains fees and payouts, and axe finds nothing serious', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  await page.goto('/educator/benefits');
  await expect(page.getByRole('heading', { name: 'Teaching on Agora' })).toBeVisible();
  await expect(page.getByRole('table')).toContainText('$88.00');
  await expect(page.getByRole('link', { name: 'Set up your educator account' })).toHaveAttribute('href', '/educator/onboard');
  await checkPage(page, 'benefits');
});

test('the fees shown are the server’s: its configured fee (12%, not the default) on /pricing and /educator/benefits', async ({
  page,
  context,
}) => {
  // The e2e server runs with PLATFORM_FEE_PERCENT=12 (tests/e2e/app-server.ts): a page that
  // wrote a fee of its own would show the default 10% somewhere.
  await logIn(context, await createVerifiedUser());
  await page.goto('/pricing');
  const educator = page.getByRole('region', { name: 'Educator', exact: true });
  await expect(educator).toContainText('12% per sale');
  await expect(page.getByRole('region', { name: 'Educator Pro' })).toContainText('Platform fee of 5% instead of 12%');
  await expect(page.locator('main')).not.toContainText('10%');
  await page.goto('/educator/benefits');
  const table = page.getByRole('table');
  await expect(table).toContainText('12%');
  await expect(table).toContainText('$88.00');
  await expect(page.getByRole('region', { name: 'Educator Pro' })).toContainText('drops from 12% to 5%');
  await expect(page.locator('main')).not.toContainText('10%');
});

test('an educator sent back by an expired onboarding link (?step=payouts) is told and taken to the payouts step', async ({ page }) => {
  const { user } = await createEducator();
  await logIn(page, user);
  await page.goto('/educator/onboard?step=payouts');
  await expect(page.getByRole('status').filter({ hasText: /interrupted or its link expired/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Set up payouts', level: 2 })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Set up payouts' })).toBeVisible();
  // Without the parameter there is no such message.
  await page.goto('/educator/onboard');
  await expect(page.getByRole('heading', { name: 'Set up payouts', level: 2 })).toBeVisible();
  await expect(page.getByText(/interrupted or its link expired/)).toHaveCount(0);
});
