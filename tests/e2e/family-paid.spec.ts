import { expect, test, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import { fitsNarrowScreen, seriousViolations } from './checks';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn, payWithCard } from './support';

/**
 * Issue 26's "done means" for family accounts, in the browser (ADR 0074): a parent adds two
 * children in settings, chooses both in "Who is this for?" on a paid session, pays with an
 * educator's code in installments (the price times the learners, the code on the total, the
 * schedule to the cent), sees whom each seat is for, and drops one child alone: that child's
 * share comes back, the other keeps the seat. The money to the cent under concurrency, replays
 * and refunds is tests/api/payments/family-checkout.test.ts.
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

test('a parent adds two children, pays for both with a code in installments, and drops one of them', async ({ browser }) => {
  const { api, user: educator } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  await enablePayouts(api, educator);
  const course = await createPaidCourse(api, {
    priceCents: 10001,
    installments: 3,
    refundPolicy: 'flexible',
    title: `Kite making ${Date.now() % 100000}`,
  });
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
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(context, parent);

  await test.step('the parent adds Mia and Leo in settings', async () => {
    await page.goto('/user/settings');
    const card = page.getByRole('group', { name: 'Learners' });
    for (const [name, age] of [
      ['Mia', '9'],
      ['Leo', '7-8'],
    ]) {
      await card.getByRole('button', { name: 'Add a learner' }).click();
      await card.getByLabel('First name').fill(name);
      await card.getByLabel('Age').fill(age);
      await card.getByRole('button', { name: 'Add learner' }).click();
      await expect(card.getByRole('status')).toHaveText(`${name} was added to your learners.`);
    }
  });

  await test.step('"Who is this for?": both children, then the checkout says whom the seats are for and the price times them', async () => {
    await page.goto(`/course/${course.courseId}`);
    await page
      .getByRole('link', { name: /^Enrol in the session/ })
      .first()
      .click();
    const who = page.getByRole('group', { name: 'Who is this for?' });
    await who.getByRole('checkbox', { name: /^Mia/ }).check();
    await who.getByRole('checkbox', { name: /^Leo/ }).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order summary' });
    const learners = summary.getByTestId('learner-lines');
    await expect(learners).toContainText('Mia, Leo');
    await expect(learners).toContainText('$100.01 × 2 learners');
    await expect(learners).toContainText('$200.02');
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

  await test.step('4242 pays the first installment; the dashboard and the payment history say whom for', async () => {
    await payWithCard(page, TEST_CARDS.success);
    await expect(page).toHaveURL(/\/course\/checkout\/complete\?session_id=/);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await page.goto('/dashboard');
    const courses = page.getByRole('list', { name: 'Your courses' });
    await expect(courses.getByRole('listitem').filter({ hasText: 'For Mia' })).toContainText(course.title);
    await expect(courses.getByRole('listitem').filter({ hasText: 'For Leo' })).toContainText(course.title);
    await page.goto('/user/settings');
    const history = page.getByRole('list', { name: 'Payments' });
    await expect(async () => {
      await page.reload();
      await expect(history).toContainText(`${course.title} (for Mia, Leo)`, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expect(history).toContainText('$56.68');
  });

  await test.step("the parent drops Leo alone: Leo's share of the first installment comes back, Mia keeps her seat", async () => {
    await page.goto('/dashboard');
    await page.getByRole('link', { name: `Drop Leo from ${course.title}` }).click();
    await expect(page.getByRole('heading', { name: 'Drop Leo from this session?' })).toBeVisible();
    // Half of the $56.68 paid, in full under the flexible policy before the start.
    await expect(page.getByText('$28.34').first()).toBeVisible();
    await checkPage(page, 'drop');
    await page.getByRole('button', { name: 'Drop Leo' }).click();
    await expect(page.getByRole('heading', { name: 'Leo has left this session' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('$28.34').first()).toBeVisible();
    await page.goto('/dashboard');
    const courses = page.getByRole('list', { name: 'Your courses' });
    await expect(courses.getByText('For Mia')).toBeVisible();
    await expect(courses.getByText('For Leo')).toHaveCount(0);
  });
  await context.close();
});
