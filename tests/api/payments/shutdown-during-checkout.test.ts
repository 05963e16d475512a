import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { makeLearner, makePublishedCourse } from '../../support/courses.js';
import { get } from '../../support/http.js';
import { buildPaymentsApp, customerOf, makePayoutEducator, startCheckout } from '../../support/payments.js';

/**
 * Graceful shutdown in sandbox mode: the checkouts in flight when shutdown begins finish
 * (their SDK calls reach this same server's sandbox), later requests get a clean 503, and
 * nothing answers 500. This is what main.ts does on SIGTERM: drain(), then close().
 */
let app: TestApp;
let closed = false;
let sdkCallSeen: () => void;
const firstSdkCall = new Promise<void>((resolve) => (sdkCallSeen = resolve));

beforeAll(async () => {
  app = await buildPaymentsApp(
    {},
    {
      beforeReady: (a) => {
        a.addHook('onRequest', async (request) => {
          if (request.url.startsWith('/v1/checkout/sessions')) sdkCallSeen();
        });
      },
    },
  );
});
afterAll(async () => {
  if (!closed) await app?.close();
});

describe('shutting down while checkouts are in flight', () => {
  it(
    'drains: the checkouts started before shutdown answer 200, none answers 500, then the server closes',
    { timeout: 120_000 },
    async () => {
      const educator = await makePayoutEducator(app);
      const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4500 } });
      const learners = await Promise.all(Array.from({ length: 4 }, () => makeLearner(app)));
      await Promise.all(learners.map((l) => customerOf(app, l)));

      const checkouts = learners.map((l) => startCheckout(app, l, courseId, sessionId, 4500));
      // Shutdown begins once the checkouts are talking to the sandbox (mid-request).
      await firstSdkCall;
      const shutdown = app.drain().then(() => app.close());
      const late = await get(app, '/api/health');
      const responses = await Promise.all(checkouts);
      await shutdown;
      closed = true;

      const statuses = responses.map((r) => r.statusCode);
      expect(
        statuses.filter((s) => s >= 500 && s !== 503),
        responses.map((r) => r.body).join('\n'),
      ).toEqual([]);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
      for (const r of responses.filter((r) => r.statusCode === 200)) expect(r.json().sessionId).toMatch(/^cs_test_/);
      for (const r of responses.filter((r) => r.statusCode === 503)) expect(r.json().error.code).toBe('shutting_down');
      // A request that arrives while draining is refused cleanly, with a reason.
      expect(late.statusCode, late.body).toBe(503);
      expect(late.json().error.code).toBe('shutting_down');
    },
  );
});
