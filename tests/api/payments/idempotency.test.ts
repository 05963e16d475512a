import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { courseBody, makeLearner, makePublishedCourse, type Educator } from '../../support/courses.js';
import { call, post } from '../../support/http.js';
import { buildPaymentsApp, customerOf, makePayoutEducator } from '../../support/payments.js';

/**
 * An Idempotency-Key reused for a checkout that is no longer the same (the price changed
 * between the two calls) is refused with a message, never a 500, and spoils nothing: the
 * checkout goes through with a new key.
 */
let app: TestApp;
let educator: Educator;
beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
});
afterAll(async () => {
  await app?.close();
});

describe('an Idempotency-Key reused with a different checkout', () => {
  it('answers 409 idempotency_key_reused with a message; a new key opens the checkout', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const buyer = await makeLearner(app);
    const customer = await customerOf(app, buyer);
    const headers = { 'idempotency-key': 'attempt-price-change-1' };
    const first = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer, course: courseId, session: sessionId, price: 4900 },
      { cookie: buyer.cookie, headers },
    );
    expect(first.statusCode, first.body).toBe(200);

    const changed = await call(app, 'PUT', `/api/courses/${courseId}`, courseBody({ priceCents: 5900 }), { cookie: educator.cookie });
    expect(changed.statusCode, changed.body).toBe(200);
    const body = { customer, course: courseId, session: sessionId, price: 5900 };
    for (let i = 0; i < 2; i++) {
      const reused = await post(app, '/api/stripe/course-embedded-checkout', body, { cookie: buyer.cookie, headers });
      expect(reused.statusCode, reused.body).toBe(409);
      expect(reused.json().error.code).toBe('idempotency_key_reused');
      expect(reused.json().error.message).toMatch(/reload the page/);
    }
    const fresh = await post(app, '/api/stripe/course-embedded-checkout', body, {
      cookie: buyer.cookie,
      headers: { 'idempotency-key': 'attempt-price-change-2' },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().sessionId).not.toBe(first.json().sessionId);
  });
});
