import { expect, test, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import { seriousViolations } from './checks';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn, payWithCard, type PaidCourse } from './support';

/**
 * Issue 23 item 2: the admin console's user detail tells the whole truth, and its sections
 * and the user open are in the address (a link to each, the back button between them).
 * The learner pays in the sandbox, drops (refunded in full) and leaves a second checkout
 * unpaid; the admin sees the course titles, "Refunded" (not "cancelled"), the unpaid
 * checkout apart from the payments, and names (not ids) in the audit log.
 */

const DEMO_ADMIN = { email: 'admin@agora.local', password: 'Agora-demo-2026' };

async function startCheckout(page: Page, course: PaidCourse) {
  await page.goto(`/course/${course.courseId}`);
  await page
    .getByRole('link', { name: /^Enrol in the session of/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await expect(page.frameLocator('iframe[title="Secure card payment"]').getByLabel('Card number')).toBeVisible();
}

async function checkWidths(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    expect(await seriousViolations(page), `axe on ${name} at ${width} px`).toEqual([]);
    await expect
      .poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth), { message: `${name} fits ${width} px` })
      .toBeLessThanOrEqual(width);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-admin-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the admin user detail: titles, true payment states, unpaid checkouts apart, names in the audit log; sections and user in the URL', async ({
  page,
  browser,
}) => {
  const { api, user: teacher } = await createEducator({ firstName: 'Frida', lastName: 'Kahlo' });
  await enablePayouts(api, teacher);
  const refundedCourse = await createPaidCourse(api, { priceCents: 10000, title: `Copperplate lettering ${Date.now() % 100000}` });
  const unpaidCourse = await createPaidCourse(api, { priceCents: 4500, title: `Kintsugi repair ${Date.now() % 100000}` });
  const learner = await createVerifiedUser({ firstName: 'Rosa', lastName: 'Refundwell' });

  await test.step('the learner pays, drops (refunded in full) and leaves a second checkout unpaid', async () => {
    const context = await browser.newContext();
    const learnerPage = await context.newPage();
    await logIn(context, learner);
    await startCheckout(learnerPage, refundedCourse);
    await payWithCard(learnerPage, TEST_CARDS.success);
    await expect(learnerPage.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await learnerPage.goto(`/course/${refundedCourse.courseId}/session/${refundedCourse.sessionId}/drop`);
    await learnerPage.getByRole('button', { name: 'Drop this session' }).click();
    await expect(learnerPage.getByText('Refunded in full')).toBeVisible();
    await startCheckout(learnerPage, unpaidCourse);
    await context.close();
  });

  await logIn(page.context(), DEMO_ADMIN);
  await page.setViewportSize({ width: 1280, height: 800 });

  await test.step('the sections are links: each in the address, back returns', async () => {
    await page.goto('/admin');
    await expect(page.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    await page.getByRole('link', { name: 'Refunds owed' }).click();
    await expect(page).toHaveURL(/\/admin\?section=refunds$/);
    await expect(page.getByRole('heading', { name: 'Refunds owed', level: 2 })).toBeVisible();
    await page.getByRole('link', { name: 'Failed jobs' }).click();
    await expect(page).toHaveURL(/section=jobs$/);
    await page.goBack();
    await expect(page).toHaveURL(/section=refunds$/);
    await expect(page.getByRole('heading', { name: 'Refunds owed', level: 2 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Refunds owed' })).toHaveAttribute('aria-current', 'page');
    await page.goBack();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('search', { name: 'Search users' })).toBeVisible();
  });

  let detailUrl = '';
  await test.step('the user opens at their own address, with titles and the states their payments give', async () => {
    await page.getByLabel('Name or email').fill(learner.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: learner.email });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: 'Rosa Refundwell' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?section=users&user=${learner.id}$`));
    detailUrl = page.url();
    await expect(page.getByRole('heading', { name: 'Rosa Refundwell', level: 2 })).toBeVisible();

    const enrolments = page.getByRole('region', { name: /^Enrolments/ });
    await expect(enrolments.getByRole('link', { name: refundedCourse.title })).toBeVisible();
    await expect(enrolments).toContainText('Dropped');
    await expect(enrolments).not.toContainText(/\bCourse\b ·/);

    const payments = page.getByRole('region', { name: /^Payments/ });
    await expect(payments.getByRole('listitem')).toHaveCount(1);
    await expect(payments.getByRole('listitem')).toContainText(refundedCourse.title);
    await expect(payments.getByRole('listitem')).toContainText('Refunded ($100.00)');
    await expect(payments).not.toContainText(/cancelled|open|checkout/i);

    const checkouts = page.getByRole('region', { name: /^Checkouts not paid/ });
    await expect(checkouts.getByRole('listitem')).toHaveCount(1);
    await expect(checkouts.getByRole('listitem')).toContainText(unpaidCourse.title);
    await expect(checkouts.getByRole('listitem')).toContainText('Checkout in progress');
    await checkWidths(page, 'user-detail');
  });

  await test.step('the address opens the same user again; back returns to the list without them', async () => {
    await page.goto('/admin?section=audit');
    await page.goto(detailUrl);
    await expect(page.getByRole('heading', { name: 'Rosa Refundwell', level: 2 })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/section=audit$/);
    await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole('heading', { name: 'Rosa Refundwell', level: 2 })).toBeVisible();
  });

  await test.step('the audit log names who acted and on whom', async () => {
    await page.getByRole('button', { name: 'Ban…' }).click();
    await page.getByRole('dialog').getByLabel('Reason').fill('Chargeback fraud');
    await page.getByRole('dialog').getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(page.getByText('Banned and signed out everywhere.')).toBeVisible();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/section=audit$/);
    const entry = page.getByRole('listitem').filter({ hasText: '“Chargeback fraud”' });
    await expect(entry).toContainText('ban Rosa Refundwell');
    await expect(entry).toContainText(learner.email);
    await expect(entry).toContainText('by Agora Admin');
    await expect(entry).not.toContainText(learner.id);
    await checkWidths(page, 'audit');
    // The name leads to the person.
    await entry.getByRole('link', { name: 'Rosa Refundwell' }).click();
    await expect(page).toHaveURL(new RegExp(`section=users&user=${learner.id}$`));
    await expect(page.getByRole('heading', { name: 'Rosa Refundwell', level: 2 })).toBeVisible();
  });
});
