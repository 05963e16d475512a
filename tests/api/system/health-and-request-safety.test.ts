import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildTestApp, openTestDatabase, useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, post, randomIp, uniqueEmail } from '../../support/http.js';

const ctx = useTestApp();

describe('health', () => {
  it('GET /api/health answers 200 {status: ok} with the database reachable', async () => {
    const res = await get(ctx.app, '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: inject('databaseUrl') ? 'postgres' : 'pglite' });
  });

  it('answers 503 when the database is gone', async () => {
    const database = await openTestDatabase();
    const own = await buildTestApp({}, { database });
    try {
      expect((await get(own, '/api/health')).statusCode).toBe(200);
      await database.close();
      const res = await get(own, '/api/health');
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('unavailable');
    } finally {
      await own.close();
    }
  });
});

describe('development tools and system routes', () => {
  it('the dev outbox lists emails newest first with to, subject, text, html, created_at and the calendar invitation', async () => {
    const email = uniqueEmail('outbox');
    await post(ctx.app, '/api/accounts/sign-up', {
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'Analytical-Engine-1843',
      birthdate: '1990-12-10',
    });
    await post(ctx.app, '/api/accounts/password-reset', { email });
    const res = await get(ctx.app, `/api/dev/outbox?to=${encodeURIComponent(email.toUpperCase())}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const messages = res.json();
    expect(messages).toHaveLength(2);
    for (const m of messages) {
      expect(Object.keys(m).sort()).toEqual(['created_at', 'html', 'icalEvent', 'id', 'subject', 'text', 'to']);
      expect(m.to).toBe(email);
      expect(m.icalEvent).toBeNull(); // account emails carry no invitation
    }
    expect(messages[0].subject).toMatch(/reset/i);
    expect(messages[1].subject).toMatch(/verify/i);
    expect(Date.parse(messages[0].created_at)).toBeGreaterThanOrEqual(Date.parse(messages[1].created_at));
  });

  it('the OpenAPI document describes the API outside production', async () => {
    const res = await get(ctx.app, '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/api/accounts/sign-up', '/api/accounts/sign-in', '/api/me', '/api/users/{userId}', '/api/health']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(doc.paths['/api/accounts/sign-up'].post.requestBody).toBeDefined();
  });

  it('/api/version answers the build id, never cached', async () => {
    const res = await get(ctx.app, '/api/version');
    expect(res.statusCode).toBe(200);
    expect(typeof res.json().buildId).toBe('string');
    expect(res.json().buildId.length).toBeGreaterThan(0);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('request safety', () => {
  it('a POST from a foreign Origin answers 403 and signs nobody in', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await post(
      ctx.app,
      '/api/accounts/sign-in',
      { email: user.email, password: user.password },
      {
        headers: { origin: 'https://evil.example' },
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('bad_origin');
    expect(res.headers['set-cookie']).toBeUndefined();

    // Same for a signed-in user's state-changing call (CSRF).
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { firstName: 'Mallory' },
      headers: { origin: 'https://evil.example', cookie: user.cookie },
      remoteAddress: randomIp(),
    });
    expect(patch.statusCode).toBe(403);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().firstName).toBe('Ada');
  });

  it('a cross-site request without an Origin header is refused too', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-up',
      payload: { email: uniqueEmail() },
      headers: { 'sec-fetch-site': 'cross-site' },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('an invalid JSON body answers 400, never 500', async () => {
    for (const url of ['/api/accounts/sign-in', '/api/accounts/sign-up', '/api/accounts/password-reset', '/api/auth/sign-in/oauth2']) {
      const res = await post(ctx.app, url, '{"email": "a@b.c", broken', { headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error ?? res.json(), url).toBeTruthy();
    }
  });

  it('a body of the wrong type answers 4xx with the error body', async () => {
    const wrongType = await post(ctx.app, '/api/accounts/sign-in', { email: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.code).toBe('invalid_input');
    const text = await post(ctx.app, '/api/accounts/sign-in', 'email=a', { headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
  });

  it('pages and API answers carry the security headers', async () => {
    for (const res of [await get(ctx.app, '/login'), await get(ctx.app, '/api/health')]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBeDefined();
    }
  });
});
