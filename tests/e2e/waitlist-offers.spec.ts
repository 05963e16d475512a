import { expect, test } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import {
  ApiClient,
  createEducator,
  createPaidCourse,
  createVerifiedUser,
  enablePayouts,
  latestEmail,
  logIn,
  payWithCard,
  signedInClient,
} from './support';

/**
 * A paid session's waitlist in the browser (issue 26.1, ADR 0067): a learner joins the
 * waitlist of a full paid session without paying, a seat frees, they see the offer (the
 * course page, their notifications, an email), claim it on the checkout they know and pay on
 * the sandbox's card form, and are enrolled. (An offer that lapses moving to the next is the
 * API test tests/api/payments/waitlist-offers.test.ts, with the hold's end brought forward.)
 */

/** A learner takes the only seat through the API: the checkout, paid on the sandbox as the card form would. */
async function buySeatViaApi(api: ApiClient, courseId: string, sessionId: string, price: number) {
  const config = await api.get('/api/stripe/config');
  expect(config.status, config.text).toBe(200);
  const customer = config.json<{ customer: string }>().customer;
  const started = await api.post('/api/stripe/course-embedded-checkout', { customer, course: courseId, session: sessionId, price });
  expect(started.status, started.text).toBe(200);
  const checkout = started.json<{ sessionId: string; clientSecret: string }>();
  const paid = await api.post(`/sandbox/api/checkout/${checkout.sessionId}/confirm`, {
    client_secret: checkout.clientSecret,
    number: TEST_CARDS.success,
    exp: '12/34',
    cvc: '123',
    name: 'Seat Holder',
  });
  expect(paid.status, paid.text).toBeLessThan(300);
  await expect(async () => {
    const view = await api.get(`/api/courses/${courseId}`);
    const mine = view
      .json<{ sessions: { id: string; myEnrolment: { status: string } | null }[] }>()
      .sessions.find((s) => s.id === sessionId);
    expect(mine?.myEnrolment?.status).toBe('active');
  }).toPass({ timeout: 30_000 });
}

test('a learner on the waitlist of a full paid session is offered a freed seat, claims it and pays', async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  const { api: educatorApi, user: educator } = await createEducator({ firstName: 'Clara', lastName: 'Schumann' });
  await enablePayouts(educatorApi, educator);
  const course = await createPaidCourse(educatorApi, { priceCents: 6000, capacity: 1, title: `Lieder singing ${Date.now() % 100000}` });

  const holder = await createVerifiedUser({ firstName: 'Fanny', lastName: 'Mendelssohn' });
  const holderApi = await signedInClient(holder);
  await buySeatViaApi(holderApi, course.courseId, course.sessionId, 6000);

  const learner = await createVerifiedUser({ firstName: 'Nadia', lastName: 'Boulanger' });
  await logIn(context, learner);

  await test.step('the full paid session says "Join the waitlist"; joining takes no payment and shows the place in line', async () => {
    await page.goto(`/course/${course.courseId}`);
    await expect(page.getByText('All 1 seats taken')).toBeVisible();
    await page.getByRole('link', { name: /^Join the waitlist/ }).click();
    await expect(page.getByRole('heading', { name: 'Join the waitlist' })).toBeVisible();
    await expect(page.getByText(/nothing to pay now/i).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(page.getByRole('heading', { name: "You're on the waitlist (#1)" })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the course' }).click();
    await expect(page.getByText('Waitlisted #1')).toBeVisible();
  });

  await test.step('the seat frees: the learner sees the offer on the course page, in the notifications and by email', async () => {
    const dropped = await holderApi.post(`/api/courses/${course.courseId}/sessions/${course.sessionId}/drop`);
    expect(dropped.status, dropped.text).toBe(200);
    await page.reload();
    await expect(page.getByText(/^Seat held for you until/)).toBeVisible();
    const mail = await latestEmail(new ApiClient(), learner.email, /is held for you/);
    expect(mail.subject).toContain(course.title);
    await page.goto('/mailbox/notifications');
    await expect(page.getByText(`A seat in ${course.title} is held for you`)).toBeVisible();
    await page.goto(`/course/${course.courseId}`);
  });

  await test.step("the educator's roster shows the offer out, and until when", async () => {
    const educatorContext = await browser.newContext();
    try {
      await logIn(educatorContext, educator);
      const roster = await educatorContext.newPage();
      await roster.goto(`/course/${course.courseId}/enrollment`);
      await expect(roster.getByRole('table').getByText('Nadia Boulanger')).toBeVisible();
      await expect(roster.getByRole('table').getByText(/^Offered a seat until/)).toBeVisible();
    } finally {
      await educatorContext.close();
    }
  });

  await test.step('they claim it on the checkout they know and pay on the card form: enrolled', async () => {
    await page.getByRole('link', { name: /^Claim your seat/ }).click();
    await expect(page).toHaveURL(new RegExp(`/course/checkout\\?course=${course.courseId}&session=${course.sessionId}$`));
    await expect(page.getByText(/^This seat is held for you until/)).toBeVisible();
    await payWithCard(page, TEST_CARDS.success);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await page.goto(`/course/${course.courseId}`);
    await expect(page.getByText("You're enrolled")).toBeVisible();
  });

  await test.step("the educator's roster shows the learner enrolled", async () => {
    const roster = await educatorApi.get(`/api/courses/${course.courseId}/roster`);
    const rows = roster.json<{ rows: { learnerEmail: string; status: string }[] }>().rows;
    expect(rows.find((r) => r.learnerEmail === learner.email)?.status).toBe('active');
  });
});
