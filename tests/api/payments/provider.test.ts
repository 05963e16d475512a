import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';

describe('with Stripe keys set', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      STRIPE_SECRET_KEY: 'sk_test_agora_provider_tests',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_agora_provider_tests',
      STRIPE_WEBHOOK_SECRET: 'whsec_agora_provider_tests',
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the payments sandbox is not mounted: no Stripe API, no sandbox pages here', async () => {
    expect(app.config.payments.mode).toBe('stripe');
    expect(app.stripeSandbox).toBeUndefined();
    const api = await app.inject({
      method: 'GET',
      url: '/v1/customers',
      headers: { authorization: 'Bearer sk_test_agora_provider_tests' },
    });
    expect(api.statusCode).toBe(404);
    expect(api.body).not.toContain('"object":"list"');
    const page = await app.inject({ method: 'GET', url: '/sandbox' });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Payments sandbox');
  });
});
