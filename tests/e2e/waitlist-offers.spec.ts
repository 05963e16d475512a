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
  offerHoldEnds,
  payWithCard,
  signedInClient,
} from './support';

/**
 * A paid session's waitlist in the browser (issue 26.1, ADR 0067): a learner joins the
 * waitlist of a full paid session without paying, a seat frees, they see the offer (the
 * course page, their notifications, an email), claim it on the checkout they know and pay on
 * the sandbox's card form, and are enrolled. An offer that lapses moves to the next in line:
 * the hold's end is brought forward in the run's database (offerHoldEnds) and the server's own
 * job poller runs the expiry job; the lapsed learner is told, the next one claims and pays.
 * (Declining, and the lapse run twice at once, are the API test tests/api/payments/waitlist-offers.test.ts.)
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

/** A learner joins the waitlist of a full session through the API. */
async function joinWaitlistViaApi(api: ApiClient, courseId: string, sessionId: string) {
  const joined = await api.post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`);
  expect(joined.status, joined.text).toBe(200);
}

test('an offer that lapses unclaimed moves to the next in line, who claims the seat and pays', async ({ page, context, browser }) => {
  const { api: educatorApi, user: educator } = await createEducator({ firstName: 'Ethel', lastName: 'Smyth' });
  await enablePayouts(educatorApi, educator);
  const course = await createPaidCourse(educatorApi, { priceCents: 4500, capacity: 1, title: `Counterpoint ${Date.now() % 100000}` });

  const holder = await createVerifiedUser({ firstName: 'Lili', lastName: 'Boulanger' });
  const holderApi = await signedInClient(holder);
  await buySeatViaApi(holderApi, course.courseId, course.sessionId, 4500);
  const first = await createVerifiedUser({ firstName: 'Germaine', lastName: 'Tailleferre' });
  const second = await createVerifiedUser({ firstName: 'Grazyna', lastName: 'Bacewicz' });
  await joinWaitlistViaApi(await signedInClient(first), course.courseId, course.sessionId);
  await joinWaitlistViaApi(await signedInClient(second), course.courseId, course.sessionId);
  await logIn(context, first);
  const secondContext = await browser.newContext();
  await logIn(secondContext, second);
  const secondPage = await secondContext.newPage();

  try {
    await test.step('the seat frees: the first in line is offered it, the second still waits', async () => {
      const dropped = await holderApi.post(`/api/courses/${course.courseId}/sessions/${course.sessionId}/drop`);
      expect(dropped.status, dropped.text).toBe(200);
      await page.goto(`/course/${course.courseId}`);
      await expect(page.getByText(/^Seat held for you until/)).toBeVisible();
      await secondPage.goto(`/course/${course.courseId}`);
      await expect(secondPage.getByText('Waitlisted #1')).toBeVisible();
    });

    await test.step('the hold is over, its job not run yet: the page says the offer ended and offers no claim', async () => {
      await offerHoldEnds(course.sessionId, { jobDue: false });
      await page.reload();
      await expect(page.getByText('Your offer of a seat has ended')).toBeVisible();
      await expect(page.getByText(/Seat held for you/)).toHaveCount(0);
      await expect(page.getByRole('link', { name: /^Claim your seat/ })).toHaveCount(0);
      await page.goto('/dashboard');
      const waitlists = page.getByRole('list', { name: 'Your waitlists' });
      await expect(waitlists.getByText('The offer of a seat has ended')).toBeVisible();
      await expect(waitlists.getByRole('link', { name: /^Claim your seat/ })).toHaveCount(0);
      await page.goto(`/course/${course.courseId}/session/${course.sessionId}/enroll`);
      await expect(page.getByRole('heading', { name: 'Your offer of a seat has ended' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Decline the seat' })).toHaveCount(0);
      await page.goto(`/course/${course.courseId}`);
    });

    await test.step("the server's expiry job ends the offer: the first learner's page no longer holds the seat", async () => {
      await offerHoldEnds(course.sessionId);
      await expect(async () => {
        await page.reload();
        await expect(page.getByRole('link', { name: /^Join the waitlist/ })).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 60_000 });
      await expect(page.getByText(/Seat held for you|Your offer of a seat has ended/)).toHaveCount(0);
      await expect(page.getByRole('link', { name: /^Claim your seat/ })).toHaveCount(0);
      await expect(page.getByText('All 1 seats taken')).toBeVisible();
    });

    await test.step('the first learner is told the seat went to the next learner (notifications, email)', async () => {
      await page.goto('/mailbox/notifications');
      await expect(page.getByText(`The seat held for you in ${course.title} has gone to the next learner`)).toBeVisible();
      await expect(page.getByText(/was not paid for in time/)).toBeVisible();
      const mail = await latestEmail(new ApiClient(), first.email, /has gone to the next learner/);
      expect(mail.subject).toContain(course.title);
    });

    await test.step('the second learner is offered the seat, claims it and pays on the card form: enrolled', async () => {
      await secondPage.reload();
      await expect(secondPage.getByText(/^Seat held for you until/)).toBeVisible();
      await secondPage.getByRole('link', { name: /^Claim your seat/ }).click();
      await expect(secondPage.getByText(/^This seat is held for you until/)).toBeVisible();
      await payWithCard(secondPage, TEST_CARDS.success);
      await expect(secondPage.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
      await secondPage.goto(`/course/${course.courseId}`);
      await expect(secondPage.getByText("You're enrolled")).toBeVisible();
    });
  } finally {
    await secondContext.close();
  }

  await test.step("the educator's roster: the second learner active, the first holds no seat", async () => {
    const roster = await educatorApi.get(`/api/courses/${course.courseId}/roster`);
    expect(roster.status, roster.text).toBe(200);
    const rows = roster.json<{ rows: { learnerEmail: string; status: string }[] }>().rows;
    expect(rows.find((r) => r.learnerEmail === second.email)?.status).toBe('active');
    expect(rows.filter((r) => r.learnerEmail === first.email && ['active', 'offered', 'waitlisted'].includes(r.status))).toEqual([]);
  });
});
