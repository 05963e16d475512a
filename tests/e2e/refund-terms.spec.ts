import { expect, test } from '@playwright/test';
import { REFUND_ARRIVAL, REFUND_POLICIES, PRICING_REFUND_PROMISE, refundPolicySentence, refundShare } from '../../src/shared/refund-terms';
import { formatMoney } from '../../src/shared/money';
import {
  createEducator,
  createPaidCourse,
  createVerifiedUser,
  enablePayouts,
  latestEmail,
  logIn,
  outbox,
  signedInClient,
  type ApiClient,
} from './support';

/**
 * Issue 23.5: every refund sentence comes from the policy's one definition
 * (src/shared/refund-terms.ts). Each policy is walked through every place that speaks of
 * refunds: the course page, the checkout, the receipt email, the drop page (its words and the
 * amount it promises, computed here from the same rule), the drop's answer and its email; and
 * the pricing page, which promises nothing a policy takes back.
 */
test('every refund policy reads the same on every page and in every email', async ({ page }) => {
  test.slow();
  const { api: educator, user } = await createEducator({ firstName: 'Rita', lastName: 'Policy' });
  await enablePayouts(educator, user);
  const learner = await createVerifiedUser({ firstName: 'Lena' });
  const learnerApi = await signedInClient(learner);
  await logIn(page, learner);

  await test.step('the pricing page promises refunds by the course policy, not one rule for all', async () => {
    await page.goto('/pricing');
    await expect(page.getByText(PRICING_REFUND_PROMISE)).toBeVisible();
    await expect(page.getByText(/Full refund if you drop before the first class/)).toHaveCount(0);
  });

  for (const policy of REFUND_POLICIES) {
    await test.step(`${policy.label}: course page, checkout, receipt, drop page, drop and its email`, async () => {
      // The first class is in 6 days: Strict gives nothing back any more, the others everything.
      const course = await createPaidCourse(educator, {
        title: `${policy.label} refunds ${Math.random().toString(36).slice(2, 7)}`,
        priceCents: 4000,
        startsIn: 5,
        refundPolicy: policy.id,
      });

      await page.goto(`/course/${course.courseId}`);
      const refunds = page.locator('#refunds');
      await expect(refunds).toContainText(`${policy.label}. ${policy.text}`);
      await expect(page.getByText(refundPolicySentence(policy.id))).toBeVisible();

      await page.goto(`/course/checkout?course=${course.courseId}&session=${course.sessionId}`);
      await expect(page.getByText(`${policy.label} refund policy`)).toBeVisible();
      await expect(page.getByText(policy.text, { exact: true })).toBeVisible();

      await payBehindTheScenes(learnerApi, course.courseId, course.sessionId, 4000);
      const receipt = await latestEmail(learnerApi, learner.email, new RegExp(`You're enrolled in ${course.title}`));
      expect(receipt.text).toContain(refundPolicySentence(policy.id));

      const firstClass = await firstClassAt(learnerApi, course.courseId, course.sessionId);
      const due = Math.round(4000 * refundShare(policy.id, firstClass));
      await page.goto(`/course/${course.courseId}/session/${course.sessionId}/drop`);
      await expect(page.getByText(refundPolicySentence(policy.id))).toBeVisible();
      if (due === 0) await expect(page.getByText('No refund under the policy')).toBeVisible();
      else await expect(page.getByTestId('refund-due')).toHaveText(formatMoney(due, 'usd'));

      await page.getByRole('button', { name: 'Drop this session' }).click();
      await expect(page.getByRole('heading', { name: 'You have left this session' })).toBeVisible();
      if (due === 0) {
        await expect(page.getByText('No refund', { exact: true })).toBeVisible();
        await expect(page.getByText(REFUND_ARRIVAL)).toHaveCount(0);
        // No refund, no refund email.
        const mails = await outbox(learnerApi, learner.email);
        expect(mails.filter((m) => m.subject === `Refund for ${course.title}`)).toEqual([]);
      } else {
        await expect(page.getByText(REFUND_ARRIVAL, { exact: false })).toBeVisible();
        const email = await latestEmail(learnerApi, learner.email, new RegExp(`^Refund for ${course.title}$`));
        expect(email.text).toContain(`We refunded ${formatMoney(due, 'usd')} to your card. ${REFUND_ARRIVAL}`);
        // One payment: no plan to stop, so no word about installments.
        expect(email.text).not.toContain('installments');
      }
    });
  }
});

/** The course checkout, paid on the payments sandbox's form as the embedded form would; waits for the seat. */
async function payBehindTheScenes(api: ApiClient, courseId: string, sessionId: string, price: number) {
  const config = await api.get('/api/stripe/config');
  expect(config.status, config.text).toBe(200);
  const checkout = await api.post('/api/stripe/course-embedded-checkout', {
    customer: config.json<{ customer: string }>().customer,
    course: courseId,
    session: sessionId,
    price,
  });
  expect(checkout.status, checkout.text).toBe(200);
  const { sessionId: checkoutId, clientSecret } = checkout.json<{ sessionId: string; clientSecret: string }>();
  const paid = await api.post(`/sandbox/api/checkout/${checkoutId}/confirm`, {
    client_secret: clientSecret,
    number: '4242 4242 4242 4242',
    exp: '12/34',
    cvc: '123',
    name: 'Lena Learner',
  });
  expect(paid.status, paid.text).toBeLessThan(300);
  await expect
    .poll(
      async () => {
        const view = (await api.get(`/api/courses/${courseId}`)).json<{
          sessions: { id: string; myEnrolment: { status: string } | null }[];
        }>();
        return view.sessions.find((s) => s.id === sessionId)?.myEnrolment?.status ?? null;
      },
      { timeout: 30_000 },
    )
    .toBe('active');
}

/** The session's first class time, as the course API tells it. */
async function firstClassAt(api: ApiClient, courseId: string, sessionId: string): Promise<Date> {
  const view = (await api.get(`/api/courses/${courseId}`)).json<{
    sessions: { id: string; classTimes: { startsAt: string }[] }[];
  }>();
  const times = view.sessions.find((s) => s.id === sessionId)!.classTimes.map((t) => Date.parse(t.startsAt));
  return new Date(Math.min(...times));
}
