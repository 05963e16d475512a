import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { courseBody, enrolmentCounts, getCourse, makeEducator, makeLearner, makePublishedCourse, enrol } from '../../support/courses.js';
import { get } from '../../support/http.js';
import { fileForm } from '../../support/multipart.js';

/**
 * Requests from another site are refused whatever spelling of the path they use, and JSON
 * endpoints refuse the bodies a plain HTML form can send (a cross-site form needs no CORS).
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const EVIL = 'https://evil.example';

function send(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts: { cookie: string; origin?: string; type?: string; payload?: string | Buffer; headers?: Record<string, string> },
) {
  return app.inject({
    method,
    url,
    headers: {
      cookie: opts.cookie,
      ...(opts.origin ? { origin: opts.origin } : {}),
      ...(opts.type ? { 'content-type': opts.type } : {}),
      ...opts.headers,
    },
    ...(opts.payload === undefined ? {} : { payload: opts.payload }),
  });
}

describe('a request from another site', () => {
  it('cannot archive a course through an encoded path (/%61pi/...)', async () => {
    const educator = await makeEducator(app);
    const { courseId } = await makePublishedCourse(app, educator);
    for (const url of [`/%61pi/courses/${courseId}/archive`, `/api/courses/${courseId}/archive`, `/api/courses/${courseId}/%61rchive`]) {
      const res = await send('POST', url, { cookie: educator.cookie, origin: EVIL });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json().error.code).toBe('bad_origin');
    }
    expect((await getCourse(app, educator, courseId)).json().status).toBe('published');
  });

  it('cannot change a course, a session or a review with PUT or PATCH through an encoded path', async () => {
    const educator = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const own = { cookie: educator.cookie, type: 'application/json' };
    // The same calls from our own origin reach the routes (so the refusals below are the check's).
    const put = (origin: string, title: string) =>
      send('PUT', `/%61pi/courses/${courseId}`, { ...own, origin, payload: JSON.stringify(courseBody({ title })) });
    const patchSession = (origin: string, capacity: number) =>
      send('PATCH', `/%61pi/courses/${courseId}/sessions/${sessionId}`, { ...own, origin, payload: JSON.stringify({ capacity }) });
    expect((await put(app.config.publicUrl, 'Renamed by its educator')).statusCode).toBe(200);
    expect((await patchSession(app.config.publicUrl, 12)).statusCode).toBe(200);

    const hijackedPut = await put(EVIL, 'Hijacked');
    expect(hijackedPut.statusCode, hijackedPut.body).toBe(403);
    const hijackedPatch = await patchSession(EVIL, 1);
    expect(hijackedPatch.statusCode, hijackedPatch.body).toBe(403);
    expect((await getCourse(app, educator, courseId)).json().title).toBe('Renamed by its educator');

    const learner = await makeLearner(app);
    const review = await send('PUT', `/%61pi/courses/${courseId}/review`, {
      cookie: learner.cookie,
      origin: EVIL,
      type: 'application/json',
      payload: JSON.stringify({ rating: 1, text: 'Hijacked review text' }),
    });
    expect(review.statusCode, review.body).toBe(403);
  });

  it('cannot drop a learner from a session with an empty text/plain form post', async () => {
    const educator = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const learner = await makeLearner(app);
    expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);

    const res = await send('POST', `/%61pi/courses/${courseId}/sessions/${sessionId}/drop`, {
      cookie: learner.cookie,
      origin: EVIL,
      type: 'text/plain',
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(403);
    // A browser that sends no Origin still says the request is cross-site.
    const noOrigin = await send('POST', `/%61pi/courses/${courseId}/sessions/${sessionId}/drop`, {
      cookie: learner.cookie,
      type: 'text/plain',
      payload: '',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(noOrigin.statusCode, noOrigin.body).toBe(403);
    expect(await enrolmentCounts(app, sessionId)).toMatchObject({ active: 1 });
  });

  it('a form posted by one of our own pages (Origin: null, Sec-Fetch-Site: same-origin) passes; Origin null from elsewhere does not', async () => {
    const educator = await makeEducator(app);
    const { courseId } = await makePublishedCourse(app, educator);
    const archive = (headers: Record<string, string>) =>
      send('POST', `/api/courses/${courseId}/archive`, { cookie: educator.cookie, origin: 'null', headers });
    expect((await archive({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await archive({})).statusCode).toBe(403);
    expect((await getCourse(app, educator, courseId)).json().status).toBe('published');
    const own = await archive({ 'sec-fetch-site': 'same-origin' });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('answers 403 even for a path that matches no route', async () => {
    const res = await send('POST', '/%61pi/no-such-thing', { cookie: '', origin: EVIL });
    expect(res.statusCode).toBe(403);
  });
});

describe('form content types on JSON endpoints', () => {
  it('are refused with 415, even from our own origin, before anything changes', async () => {
    const educator = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const learner = await makeLearner(app);
    expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);
    const own = app.config.publicUrl;
    const drop = `/api/courses/${courseId}/sessions/${sessionId}/drop`;
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await send('POST', drop, { cookie: learner.cookie, origin: own, type, payload: '' });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(res.json().error.message).toMatch(/JSON/);
      const encoded = await send('POST', `/%61pi/courses/${courseId}/archive`, { cookie: educator.cookie, type, payload: 'a=b' });
      expect(encoded.statusCode, `${type}: ${encoded.body}`).toBe(415);
    }
    expect(await enrolmentCounts(app, sessionId)).toMatchObject({ active: 1 });
    expect((await getCourse(app, educator, courseId)).json().status).toBe('published');
  });

  it('an upload route still takes multipart/form-data from our own origin', async () => {
    const learner = await makeLearner(app);
    const form = await fileForm({ data: Buffer.from('not a picture'), filename: 'a.png', type: 'image/png' });
    const res = await send('POST', `/api/users/${learner.id}/avatar`, {
      cookie: learner.cookie,
      origin: app.config.publicUrl,
      payload: form.payload,
      headers: form.headers,
    });
    expect(res.statusCode, res.body).toBe(400);
    const foreign = await send('POST', `/api/users/${learner.id}/avatar`, {
      cookie: learner.cookie,
      origin: EVIL,
      payload: form.payload,
      headers: form.headers,
    });
    expect(foreign.statusCode, foreign.body).toBe(403);
  });
});

describe('exceptions that check the caller their own way', () => {
  it('the Stripe webhook is not refused for its Origin (its signature decides)', async () => {
    const res = await send('POST', '/api/stripe/webhook', { cookie: '', origin: EVIL, type: 'application/json', payload: '{}' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('bad_signature');
  });

  it("better-auth's routes keep their own origin check: a foreign sign-out through an encoded path leaves the session", async () => {
    const learner = await makeLearner(app);
    await send('POST', '/%61pi/auth/sign-out', { cookie: learner.cookie, origin: EVIL, type: 'application/json', payload: '{}' });
    expect((await get(app, '/api/me', { cookie: learner.cookie })).statusCode).toBe(200);
  });
});
