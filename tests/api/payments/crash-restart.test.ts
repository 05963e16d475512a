import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';
import {
  courseBody,
  educatorUser,
  request,
  runLoad,
  signedInUser,
  startServer,
  tally,
  waitUntil,
  type Answer,
  type ServerProcess,
} from '../../support/server-process.js';

/**
 * kill -9 of the real server process while buyers pay (sandbox mode: the checkout form,
 * the provider API and the webhooks are all served by this process, over HTTP), then a
 * restart on the same database and port. Buyers whose payment got no answer pay again;
 * the webhooks left undelivered are retried. In the end every paid checkout is fulfilled
 * exactly once: one purchase, one enrolment, one payment row, one charge, no refund.
 */
const usesPostgres = !!inject('databaseUrl') && process.env.AGORA_TEST_PGLITE !== '1';
if (!usesPostgres) console.warn('  reliability-payments-crash skipped: it needs a throwaway PostgreSQL database (PGlite run)');

const PRICE = 4500;
const must = (what: string, a: Answer, status = 200) => {
  if (a.status !== status) throw new Error(`${what} answered ${a.status ?? a.error} ${a.body}`);
  return a.json();
};

describe.skipIf(!usesPostgres)('kill -9 during payments, then a restart', () => {
  let run: RunDatabase;
  let admin: pg.Client;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;

  beforeAll(async () => {
    const made = await createRunDatabase('agora_reliability');
    if ('error' in made) throw new Error(made.error);
    run = made;
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await admin?.end();
    await run?.drop();
  });

  const rows = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await admin.query<T>(text, values)).rows;

  /** A paid, published course with one session, sold by an educator whose payouts are set up. */
  async function paidCourse(base: string, educator: { cookie: string }, title: string) {
    const course = must(
      'create course',
      await request(base, 'POST', '/api/courses', { cookie: educator.cookie, body: courseBody(title, PRICE) }),
      201,
    );
    const day = (n: number) => new Date(Date.now() + n * 86400_000);
    const session = must(
      'add session',
      await request(base, 'POST', `/api/courses/${course.id}/sessions`, {
        cookie: educator.cookie,
        body: {
          startsOn: day(30).toISOString().slice(0, 10),
          endsOn: day(60).toISOString().slice(0, 10),
          capacity: 20,
          minToRun: 1,
          timeZone: 'Europe/London',
        },
      }),
      201,
    );
    const start = day(31);
    start.setUTCHours(17, 0, 0, 0);
    must(
      'add class time',
      await request(base, 'POST', `/api/courses/${course.id}/sessions/${session.id}/class-times`, {
        cookie: educator.cookie,
        body: {
          startsAt: start.toISOString(),
          endsAt: new Date(start.getTime() + 90 * 60_000).toISOString(),
          meetingUrl: 'https://meet.example.com/room-1',
        },
      }),
      201,
    );
    must('publish', await request(base, 'POST', `/api/courses/${course.id}/publish`, { cookie: educator.cookie }));
    return { courseId: course.id as string, sessionId: session.id as string };
  }

  it('every paid checkout is fulfilled exactly once', { timeout: 400_000 }, async () => {
    first = await startServer({ databaseUrl: run.url });
    const { base, port, dataDir } = first;

    const educator = await educatorUser(base, 'reliability-pay');
    const account = must(
      'create payout account',
      await request(base, 'POST', '/api/stripe/create-stripe-account', {
        cookie: educator.cookie,
        body: { email: educator.email, user_id: educator.id },
      }),
    );
    const q = new URLSearchParams({ return_url: `${base}/educator/onboard-success`, refresh_url: `${base}/educator/onboard?step=payouts` });
    const onboard = await request(base, 'POST', `/sandbox/connect/onboard/${account.stripe_connect_account_id}?${q}`, {
      form: { legal_name: 'Grace Hopper Studio', country: 'US' },
    });
    expect([200, 302, 303], onboard.body).toContain(onboard.status);
    await waitUntil('charges enabled', async () => {
      const payouts = await request(base, 'GET', '/api/educator/payouts?refresh=1', { cookie: educator.cookie });
      return payouts.status === 200 && payouts.json().account?.chargesEnabled === true;
    });
    const courses = [await paidCourse(base, educator, 'Crash-proof watercolour'), await paidCourse(base, educator, 'Crash-proof drawing')];

    // Six buyers, each buying both courses: twelve checkouts, started before the crash.
    const learners = [];
    for (let i = 0; i < 6; i++) learners.push(await signedInUser(base, `reliability-buyer${i}`));
    const checkouts: { clientSecret: string; sessionId: string }[] = [];
    for (const learner of learners) {
      const { customer } = must('customer', await request(base, 'GET', '/api/stripe/config', { cookie: learner.cookie }));
      for (const c of courses) {
        const started = await request(base, 'POST', '/api/stripe/course-embedded-checkout', {
          cookie: learner.cookie,
          body: { customer, course: c.courseId, session: c.sessionId, price: PRICE },
        });
        checkouts.push(must('start checkout', started));
      }
    }
    const pay = (target: string, i: number) =>
      request(target, 'POST', `/sandbox/api/checkout/${checkouts[i].sessionId}/confirm`, {
        body: { client_secret: checkouts[i].clientSecret, number: '4242 4242 4242 4242', exp: '12/34', cvc: '123', name: 'Ada Lovelace' },
      });

    // Buyers pay three at a time; the server is killed (SIGKILL, no drain) once four were answered.
    let paidAnswers = 0;
    let killedAt = 0;
    const firstRound = await runLoad({
      concurrency: 3,
      maxRequests: checkouts.length,
      send: (i) => pay(base, i),
      onAnswer: ({ answer }) => {
        if (answer.status === 200 && ++paidAnswers === 4) {
          killedAt = Date.now();
          first!.child.kill('SIGKILL');
        }
      },
    });
    expect(killedAt).toBeGreaterThan(0);
    expect(await first.exited(30_000)).toBe('SIGKILL');
    // What the crash left to do: paid checkouts not fulfilled yet, webhooks not delivered.
    const [left] = await rows<{ unfulfilled: number; undelivered: number }>(
      `select (select count(*)::int from stripe_sandbox.object o where type = 'checkout.session' and data->>'payment_status' = 'paid'
                 and not exists (select 1 from purchase p where p.checkout_session_id = o.id and p.status = 'fulfilled')) as unfulfilled,
              (select count(*)::int from stripe_sandbox.delivery where delivered_at is null) as undelivered`,
    );

    // The same server again, on the same database, port and data directory.
    second = await startServer({ databaseUrl: run.url, port, dataDir });
    const unanswered = firstRound.filter((s) => s.answer.status !== 200).map((s) => s.index);
    // A buyer who saw no answer pays again: paid already (400, inactive) or paid now (200).
    const retries = await Promise.all(unanswered.map((i) => pay(base, i)));

    const paid = async () =>
      rows<{ id: string; payment_intent: string }>(
        `select id, data->>'payment_intent' as payment_intent from stripe_sandbox.object where type = 'checkout.session' and data->>'payment_status' = 'paid'`,
      );
    await waitUntil(
      'every paid checkout to be fulfilled and every webhook delivered',
      async () => {
        const [{ open }] = await rows<{ open: number }>(
          `select count(*)::int as open from stripe_sandbox.object o where type = 'checkout.session' and data->>'payment_status' = 'paid'
           and not exists (select 1 from purchase p where p.checkout_session_id = o.id and p.status = 'fulfilled')`,
        );
        const [{ pending }] = await rows<{ pending: number }>(
          'select count(*)::int as pending from stripe_sandbox.delivery where delivered_at is null',
        );
        return open === 0 && pending === 0;
      },
      180_000,
      () => second!.exit() !== null,
    );

    const paidSessions = await paid();
    const problems: string[] = [];
    for (const s of paidSessions) {
      const purchases = await rows<{ id: string; status: string; user_id: string; session_id: string; enrolment_id: string | null }>(
        'select id, status, user_id, session_id, enrolment_id from purchase where checkout_session_id = $1',
        [s.id],
      );
      if (purchases.length !== 1) {
        problems.push(`${s.id}: ${purchases.length} purchases`);
        continue;
      }
      const [p] = purchases;
      const enrolments = await rows<{ id: string; status: string }>(
        `select id, status from enrolment where learner_id = $1 and session_id = $2 and status <> 'dropped'`,
        [p.user_id, p.session_id],
      );
      const payments = await rows<{ refunded_cents: number }>('select refunded_cents from payment where purchase_id = $1', [p.id]);
      const charges = await rows("select id from stripe_sandbox.object where type = 'charge' and data->>'payment_intent' = $1", [
        s.payment_intent,
      ]);
      if (p.status !== 'fulfilled') problems.push(`${s.id}: purchase ${p.status}`);
      if (enrolments.length !== 1 || enrolments[0].status !== 'active' || enrolments[0].id !== p.enrolment_id)
        problems.push(`${s.id}: enrolments ${JSON.stringify(enrolments)}`);
      if (payments.length !== 1 || payments[0].refunded_cents !== 0) problems.push(`${s.id}: payments ${JSON.stringify(payments)}`);
      if (charges.length !== 1) problems.push(`${s.id}: ${charges.length} charges`);
    }
    const [{ refunds }] = await rows<{ refunds: number }>(
      `select count(*)::int as refunds from stripe_sandbox.object where type = 'refund'`,
    );
    const [{ owed }] = await rows<{ owed: number }>('select count(*)::int as owed from refund_due');
    const [{ enrolled }] = await rows<{ enrolled: number }>(`select count(*)::int as enrolled from enrolment where status = 'active'`);
    const [{ payments }] = await rows<{ payments: number }>('select count(*)::int as payments from payment');
    const seats = await rows<{ id: string; seats_taken: number; active: number }>(
      `select s.id, s.seats_taken, (select count(*)::int from enrolment e where e.session_id = s.id and e.status = 'active') as active from course_session s`,
    );

    const before = tally(firstRound.map((s) => s.answer));
    const after = tally(retries);
    console.log(
      `  [reliability] kill -9 during payments: checkouts ${checkouts.length}; before the kill: requests ${before.requests}, 2xx ${before.ok}, 503 ${before.unavailable}, 5xx other ${before.otherServerErrors}, no answer ${before.noAnswer}; left by the crash: paid but unfulfilled ${left.unfulfilled}, webhooks undelivered ${left.undelivered}; after the restart: paid again ${after.requests}, 2xx ${after.ok}, 4xx ${after.other}, 5xx ${after.unavailable + after.otherServerErrors}; paid ${paidSessions.length}, enrolments ${enrolled}, payments ${payments}, refunds ${refunds}, refunds owed ${owed}, problems ${problems.length}`,
    );

    expect(problems).toEqual([]);
    expect(paidSessions.length).toBe(checkouts.length);
    expect(enrolled).toBe(checkouts.length);
    expect(payments).toBe(checkouts.length);
    expect(refunds).toBe(0);
    expect(owed).toBe(0);
    for (const s of seats) expect(s.seats_taken, s.id).toBe(s.active);
    // No payment answered a server error; a retried one is either paid now or already paid.
    expect([...firstRound.map((s) => s.answer), ...retries].filter((a) => a.status !== null && a.status >= 500).map((a) => a.body)).toEqual(
      [],
    );
    for (const a of retries) expect([200, 400], a.body).toContain(a.status);
  });
});
