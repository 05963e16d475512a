import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { allCourses } from '../courses/relations.js';

/**
 * Course page views, counted by our own server (docs/decisions/0021-analytics.md):
 * no cookie, no third party. A view is noted in memory after the course page's answer
 * is sent, and the notes are flushed to the database in one statement every few seconds
 * (and at shutdown): a crash loses at most FLUSH_MS of counts. One view per viewer per
 * course per UTC day: the viewer is a hash of today's salt with the user id (signed in)
 * or the IP address and user agent (anonymous); the salt is deleted once the day is over,
 * so yesterday's keys cannot be tied to anyone. Bots (user agent) and the course's own
 * educator are not counted.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The page-view buffer (flush() writes what is noted; tests and shutdown call it). */
    pageViews: PageViewCounter;
  }
}

export const FLUSH_MS = 2000;
/** Rows per INSERT, so one flush never builds a huge statement. */
const BATCH = 500;
/** Past this many notes a flush starts at once (a burst never grows the buffer without bound). */
const HIGH_WATER = 5000;

/** The route whose successful answers are course page views. */
export const COURSE_PAGE_ROUTE = '/api/courses/:courseId';

const BOT_UA =
  /bot|crawl|spider|slurp|scrape|curl|wget|python|java\/|go-http|node-fetch|axios|http-?client|libwww|headless|phantom|lighthouse|facebookexternalhit|preview|monitor|fetch|feed|archiver|okhttp|postman|insomnia|autocannon/i;

/** Whether a user agent looks like a program rather than a person's browser. */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.length < 10) return true;
  if (BOT_UA.test(userAgent)) return true;
  return !/mozilla|opera/i.test(userAgent);
}

interface Note {
  courseId: string;
  day: string;
  /** 'u:<user id>' or 'a:<ip> <user agent>' until hashed at flush. */
  who: string;
  userId: string | null;
}

export interface PageViewCounter {
  note(courseId: string, viewer: { userId: string | null; ip: string; userAgent: string }): void;
  flush(): Promise<void>;
  /** Notes waiting to be written. */
  pending(): number;
}

const utcDay = (d = new Date()) => d.toISOString().slice(0, 10);

export function createPageViewCounter(app: Pick<FastifyInstance, 'database' | 'log'>): PageViewCounter {
  let buffer = new Map<string, Note>();
  let salt: { day: string; value: string } | null = null;
  let flushing: Promise<void> | null = null;
  const db = app.database.db;

  async function saltOf(day: string): Promise<string> {
    if (salt?.day === day) return salt.value;
    // One salt per day for every app process; yesterday's (and its keys) are deleted.
    await db.execute(sql`delete from course_view_salt where day < ${day}::date`);
    await db.execute(sql`delete from course_view_seen where day < ${day}::date`);
    await db.execute(
      sql`insert into course_view_salt (day, salt) values (${day}::date, ${randomBytes(32).toString('hex')}) on conflict (day) do nothing`,
    );
    const res = (await db.execute(sql`select salt from course_view_salt where day = ${day}::date`)) as unknown as {
      rows: { salt: string }[];
    };
    salt = { day, value: res.rows[0].salt };
    return salt.value;
  }

  async function write(notes: Note[]) {
    const byDay = new Map<string, Note[]>();
    for (const n of notes) byDay.set(n.day, [...(byDay.get(n.day) ?? []), n]);
    const today = utcDay();
    for (const [day, list] of byDay) {
      // A note of a day already over (flushed just after midnight) counts under today's salt.
      const s = await saltOf(day < today ? today : day);
      for (let i = 0; i < list.length; i += BATCH) {
        const rows = list
          .slice(i, i + BATCH)
          .map(
            (n) =>
              sql`(${n.courseId}::uuid, ${n.day}::date, ${createHash('sha256').update(`${s}\n${n.who}`).digest('base64url')}, ${n.userId}::uuid)`,
          );
        await db.execute(sql`
          with input (course_id, day, viewer_key, user_id) as (values ${sql.join(rows, sql`, `)}),
          eligible as (
            select i.course_id, c.educator_id, i.day, i.viewer_key from input i join ${allCourses} c on c.id = i.course_id
            where i.user_id is null or c.educator_id <> i.user_id
          ),
          fresh as (
            insert into course_view_seen (course_id, day, viewer_key)
            select course_id, day, viewer_key from eligible
            on conflict do nothing
            returning course_id, day
          )
          insert into course_view_day (course_id, educator_id, day, views)
          select f.course_id, c.educator_id, f.day, count(*)::int from fresh f join ${allCourses} c on c.id = f.course_id group by f.course_id, c.educator_id, f.day
          on conflict (course_id, day) do update set views = course_view_day.views + excluded.views`);
      }
    }
  }

  async function flush(): Promise<void> {
    while (flushing) await flushing;
    if (buffer.size === 0) return;
    const notes = [...buffer.values()];
    buffer = new Map();
    flushing = write(notes)
      .catch((err) => app.log.warn({ err, views: notes.length }, 'could not write course page views; these are lost'))
      .finally(() => {
        flushing = null;
      });
    await flushing;
  }

  return {
    note(courseId, viewer) {
      const day = utcDay();
      const who = viewer.userId ? `u:${viewer.userId}` : `a:${viewer.ip} ${viewer.userAgent}`;
      const key = `${day}|${courseId}|${who}`;
      if (buffer.has(key)) return;
      buffer.set(key, { courseId, day, who, userId: viewer.userId });
      if (buffer.size >= HIGH_WATER) void flush();
    },
    flush,
    pending: () => buffer.size,
  };
}

/** Bench only (BENCH_ROUTES): this header turns counting off for one request, to measure its cost. */
export const NO_COUNT_HEADER = 'x-bench-no-count';

/**
 * Counts successful answers of the course page (wired in app.ts before the routes). The
 * viewer is the one the route resolved (no second query); the work after the answer is
 * one Map lookup.
 */
export function countCoursePageViews(app: FastifyInstance) {
  const counter = createPageViewCounter(app);
  app.decorate('pageViews', counter);
  const timer = setInterval(() => void counter.flush(), FLUSH_MS);
  timer.unref();
  app.addHook('onResponse', async (request: FastifyRequest, reply) => {
    if (reply.statusCode !== 200 || request.method !== 'GET' || request.routeOptions.url !== COURSE_PAGE_ROUTE) return;
    if (app.config.benchRoutes && request.headers[NO_COUNT_HEADER]) return;
    const userAgent = request.headers['user-agent'];
    if (isBot(userAgent)) return;
    const courseId = (request.params as { courseId?: string }).courseId;
    if (!courseId) return;
    const viewer = app.resolvedViewer(request);
    counter.note(courseId, { userId: viewer?.user.id ?? null, ip: request.ip, userAgent: userAgent ?? '' });
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await counter.flush();
  });
}
