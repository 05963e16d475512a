import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp(
    {},
    {
      beforeReady: (a) => {
        a.get('/explode-for-test', async () => {
          throw new Error('secret internal detail from the page handler');
        });
        a.get('/api/explode-for-test', async () => {
          throw new Error('secret internal detail from the API handler');
        });
      },
    },
  );
});
afterAll(async () => {
  await app.close();
});

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PUBLIC = [
  '/',
  '/login',
  '/signup',
  '/verify-email',
  '/reset-password',
  '/send-password-reset',
  '/project',
  '/roadmap',
  '/contact',
  '/email-verified',
  '/google-login',
];

describe('route rules on a full page load', () => {
  it('/dashboard without a session redirects (302) to /login?next=%2Fdashboard', async () => {
    const res = await get(app, '/dashboard');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?next=%2Fdashboard');
  });

  it('keeps the query string of the page asked for in next', async () => {
    const res = await get(app, '/course/search?q=pottery&page=2');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent('/course/search?q=pottery&page=2')}`);
  });

  it('/course/new and /user/<uuid>/edit are protected', async () => {
    const id = randomUUID();
    for (const path of ['/course/new', `/user/${id}/edit`, '/user/settings', '/explore', '/mailbox', '/auth-test']) {
      const res = await get(app, path);
      expect(res.statusCode, path).toBe(302);
      expect(res.headers.location, path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('a signed-in user gets the protected pages (200)', async () => {
    const user = await createSignedInUser(app);
    for (const path of ['/dashboard', '/course/new', `/user/${user.id}/edit`, '/explore']) {
      const res = await get(app, path, { cookie: user.cookie });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
    }
  });

  it('a revoked session is sent to /login with the reason', async () => {
    const user = await createSignedInUser(app);
    await post(app, '/api/accounts/sign-out', undefined, { cookie: user.cookie });
    const res = await get(app, '/dashboard', { cookie: user.cookie });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?next=%2Fdashboard&reason=session-expired');
  });

  it('the public paths answer 200 without a session', async () => {
    for (const path of PUBLIC) {
      const res = await get(app, path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
      expect(res.body.length, path).toBeGreaterThan(0);
    }
  });

  it('/Login answers 301 to the lowercase /login, keeping the query', async () => {
    const res = await get(app, '/Login');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/login');
    const withQuery = await get(app, '/SignUp?ref=ad');
    expect(withQuery.statusCode).toBe(301);
    expect(withQuery.headers.location).toBe('/signup?ref=ad');
    // A protected path in capitals is first made canonical.
    const dash = await get(app, '/Dashboard');
    expect(dash.statusCode).toBe(301);
    expect(dash.headers.location).toBe('/dashboard');
  });

  it('a path matching no route answers 404 with the page', async () => {
    for (const path of ['/no-such-page', '/course/1/2/3/4/5/6', '/login/extra']) {
      const res = await get(app, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
    }
  });

  it('a crawler asking for an unknown path gets a bare 404 with a minimal text body', async () => {
    const res = await get(app, '/no-such-page', { headers: { 'user-agent': GOOGLEBOT } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Not Found');
  });

  it('an unexpected error on a page answers 500 "Internal Server Error" without a stack trace', async () => {
    const res = await get(app, '/explode-for-test');
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Internal Server Error');
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
  });

  it('an unexpected error in the API answers 500 JSON "Internal Server Error" without details', async () => {
    const res = await get(app, '/api/explode-for-test');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'internal', message: 'Internal Server Error' } });
  });

  it('an unknown /api path answers 404 JSON, never the page', async () => {
    for (const res of [await get(app, '/api/no-such-thing'), await post(app, '/api/no-such-thing', {})]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});
