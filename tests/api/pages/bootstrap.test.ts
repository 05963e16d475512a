import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCourse, makeEducator, makeLearner, makePublishedCourse, useCoursesApp } from '../../support/courses.js';
import { get, type Response } from '../../support/http.js';
import { CATALOGUE_FIRST_PAGE_API } from '../../../src/shared/courses.js';

/** The page's embedded first-render data (decision 0027), parsed as the web app parses it. */
function bootstrapOf(res: Response): { viewer: { id: string; firstName: string; email: string } | null; answers: Record<string, unknown> } {
  const match = /<script type="application\/json" id="agora-bootstrap">([\s\S]*?)<\/script>/.exec(res.body);
  expect(match, 'the page has a bootstrap block').not.toBeNull();
  return JSON.parse(match![1]);
}

const ctx = useCoursesApp();

describe('the served page carries what its first render needs', () => {
  it('each signed-in user gets their own viewer in the page, never stored by a cache', async () => {
    const ada = await makeLearner(ctx.app, { firstName: 'Ada' });
    const alan = await makeLearner(ctx.app, { firstName: 'Alan' });
    for (const [user, name] of [
      [ada, 'Ada'],
      [alan, 'Alan'],
      [ada, 'Ada'],
    ] as const) {
      const res = await get(ctx.app, '/dashboard', { cookie: user.cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const { viewer } = bootstrapOf(res);
      expect(viewer).toMatchObject({ id: user.id, email: user.email, firstName: name });
      // The same as GET /api/me answers.
      expect(viewer).toEqual((await get(ctx.app, '/api/me', { cookie: user.cookie })).json());
    }
  });

  it('a visitor gets viewer null on a public page (and no one’s data)', async () => {
    await makeLearner(ctx.app, { firstName: 'Someone' });
    for (const path of ['/', '/login']) {
      const res = await get(ctx.app, path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const { viewer, answers } = bootstrapOf(res);
      expect(viewer).toBeNull();
      // The landing page carries its public figures and featured courses, as GET /api/landing answers a visitor.
      expect(answers).toEqual(path === '/' ? { '/api/landing': (await get(ctx.app, '/api/landing')).json() } : {});
    }
  });

  it('a name holding </script> cannot end the block: escaped in the HTML, the same name once parsed', async () => {
    const name = '</script><script>alert(1)</script>&<!--';
    const user = await makeLearner(ctx.app, { firstName: name });
    const res = await get(ctx.app, '/explore', { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<!--"');
    expect(bootstrapOf(res).viewer?.firstName).toBe(name);
    // The policy still allows no inline script: the data block is not one.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
  });

  it("/explore and /dashboard embed the viewer's own API answers", async () => {
    const user = await makeLearner(ctx.app, { firstName: 'Grace' });
    for (const [page, api] of [
      ['/explore', '/api/explore'],
      ['/dashboard', '/api/dashboard'],
    ]) {
      const { answers } = bootstrapOf(await get(ctx.app, page, { cookie: user.cookie }));
      expect(Object.keys(answers)).toEqual([api]);
      expect(answers[api]).toEqual((await get(ctx.app, api, { cookie: user.cookie })).json());
    }
  });

  it('/course/search embeds the first page of the catalogue as the web app asks it; a filtered search embeds nothing', async () => {
    await makePublishedCourse(ctx.app, ctx.educator);
    const user = await makeLearner(ctx.app);
    const { answers } = bootstrapOf(await get(ctx.app, '/course/search', { cookie: user.cookie }));
    expect(Object.keys(answers)).toEqual([CATALOGUE_FIRST_PAGE_API]);
    const fromApi = (await get(ctx.app, CATALOGUE_FIRST_PAGE_API, { cookie: user.cookie })).json();
    expect(fromApi.items.length).toBeGreaterThan(0);
    expect(answers[CATALOGUE_FIRST_PAGE_API]).toEqual(fromApi);
    expect(bootstrapOf(await get(ctx.app, '/course/search?q=pottery', { cookie: user.cookie })).answers).toEqual({});
  });

  it('a course page embeds the course as its API answers it; a course that is not there embeds nothing', async () => {
    const { courseId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { title: 'Pottery <b>at</b> night' } });
    const learner = await makeLearner(ctx.app);
    const res = await get(ctx.app, `/course/${courseId}`, { cookie: learner.cookie });
    expect(res.statusCode).toBe(200);
    const { answers } = bootstrapOf(res);
    const api = `/api/courses/${courseId}`;
    expect(answers[api]).toEqual((await get(ctx.app, api, { cookie: learner.cookie })).json());
    expect((answers[api] as { title: string }).title).toBe('Pottery <b>at</b> night');
    expect(res.body).not.toContain('Pottery <b>');

    // The not-found page, with 404 (issue 23; tests/api/pages/unknown-ids.test.ts).
    const missing = await get(ctx.app, `/course/${randomUUID()}`, { cookie: learner.cookie });
    expect(missing.statusCode).toBe(404);
    expect(bootstrapOf(missing).answers).toEqual({});
  });

  it("another educator's draft course is not embedded for a learner (the API's access check holds)", async () => {
    const other = await makeEducator(ctx.app, { firstName: 'Drafty' });
    const draftId = await makeCourse(ctx.app, other);
    const learner = await makeLearner(ctx.app);
    expect((await get(ctx.app, `/api/courses/${draftId}`, { cookie: learner.cookie })).statusCode).not.toBe(200);
    expect(bootstrapOf(await get(ctx.app, `/course/${draftId}`, { cookie: learner.cookie })).answers).toEqual({});
    expect(bootstrapOf(await get(ctx.app, `/course/${draftId}`, { cookie: other.cookie })).answers).toHaveProperty(
      `/api/courses/${draftId}`,
    );
  });
});
