import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isBot } from '../../../src/server/analytics/page-views.js';
import { createSignedInUser } from '../../support/factories.js';
import { get } from '../../support/http.js';
import { makePublishedCourse, queryRows, useCoursesApp } from '../../support/courses.js';

/** Course page views (issue 13): one per viewer per course per day, no bots, not the educator. */
const ctx = useCoursesApp();
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
let courseId: string;

const viewsOf = async (id: string) =>
  Number(
    (await queryRows<{ n: number }>(ctx.app, sql`select coalesce(sum(views), 0)::int as n from course_view_day where course_id = ${id}`))[0]
      .n,
  );
const open = (cookie: string | undefined, ua = BROWSER, ip?: string) =>
  get(ctx.app, `/api/courses/${courseId}`, { cookie, ip, headers: { 'user-agent': ua } });

beforeAll(async () => {
  ({ courseId } = await makePublishedCourse(ctx.app, ctx.educator));
});

describe('course page views', () => {
  it('are buffered, not written by the request, and written by a flush', async () => {
    const learner = await createSignedInUser(ctx.app);
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    expect((await open(learner.cookie)).statusCode).toBe(200);
    expect(ctx.app.pageViews.pending()).toBe(1);
    expect(await viewsOf(courseId)).toBe(before);
    await ctx.app.pageViews.flush();
    expect(ctx.app.pageViews.pending()).toBe(0);
    expect(await viewsOf(courseId)).toBe(before + 1);
  });

  it('count one per viewer per day, across flushes', async () => {
    const learner = await createSignedInUser(ctx.app);
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    await open(learner.cookie);
    await open(learner.cookie, BROWSER.replace('17.0', '17.1'), '10.9.9.9');
    await ctx.app.pageViews.flush();
    await open(learner.cookie);
    await ctx.app.pageViews.flush();
    expect(await viewsOf(courseId)).toBe(before + 1);
  });

  it('leave out bots and the course educator', async () => {
    const learner = await createSignedInUser(ctx.app);
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    await open(learner.cookie, 'Googlebot/2.1 (+http://www.google.com/bot.html)');
    await open(learner.cookie, 'curl/8.5.0');
    await open(learner.cookie, '');
    await open(ctx.educator.cookie);
    await ctx.app.pageViews.flush();
    expect(await viewsOf(courseId)).toBe(before);
    expect(isBot(BROWSER)).toBe(false);
    expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).toBe(true);
  });

  it('anonymous viewers count by a salted hash of address and browser; nothing personal is stored', async () => {
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    ctx.app.pageViews.note(courseId, { userId: null, ip: '192.0.2.7', userAgent: BROWSER });
    await ctx.app.pageViews.flush();
    ctx.app.pageViews.note(courseId, { userId: null, ip: '192.0.2.7', userAgent: BROWSER });
    ctx.app.pageViews.note(courseId, { userId: null, ip: '192.0.2.8', userAgent: BROWSER });
    await ctx.app.pageViews.flush();
    expect(await viewsOf(courseId)).toBe(before + 2);
    const keys = await queryRows<{ viewer_key: string }>(
      ctx.app,
      sql`select viewer_key from course_view_seen where course_id = ${courseId}`,
    );
    for (const { viewer_key } of keys) {
      expect(viewer_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(viewer_key).not.toContain('192.0.2');
    }
  });

  it('a failed page (unknown course) counts nothing', async () => {
    const learner = await createSignedInUser(ctx.app);
    const res = await get(ctx.app, '/api/courses/00000000-0000-4000-8000-000000000000', {
      cookie: learner.cookie,
      headers: { 'user-agent': BROWSER },
    });
    expect(res.statusCode).toBe(404);
    expect(ctx.app.pageViews.pending()).toBe(0);
  });

  it('a big burst is flushed in batches, and nothing is lost', async () => {
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    for (let i = 0; i < 1200; i++)
      ctx.app.pageViews.note(courseId, { userId: null, ip: `198.51.${i >> 8}.${i & 255}`, userAgent: BROWSER });
    await ctx.app.pageViews.flush();
    expect(await viewsOf(courseId)).toBe(before + 1200);
  });

  it('views still buffered are written when the server closes', async () => {
    const { buildTestApp } = await import('../../support/app.js');
    const app2 = await buildTestApp({}, { database: ctx.app.database });
    await ctx.app.pageViews.flush();
    const before = await viewsOf(courseId);
    app2.pageViews.note(courseId, { userId: null, ip: '203.0.113.9', userAgent: BROWSER });
    await app2.close();
    expect(await viewsOf(courseId)).toBe(before + 1);
  });
});
