import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exploreResult, searchResult, type CourseCard } from '../../../src/shared/courses-schemas.js';
import type { SearchParams } from '../../../src/server/courses/search-parts.js';
import { isOneWordShape, oneWordTotal } from '../../../src/server/courses/search-one-word.js';
import { isPreparedShape, searchSql } from '../../../src/server/courses/search-sql.js';
import { SEARCH_CONNECTION_OPTIONS } from '../../../src/server/courses/search-routes.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, get, patch, post } from '../../support/http.js';
import { dayFromNow, firstClassTookPlace, makeCourse, makeSession, publish } from '../../support/courses.js';

/**
 * GET /api/courses/search and GET /api/explore. The test database is shared with other
 * test files running at the same time, so every course here carries a token of this
 * run (TOK) and most searches are scoped by it.
 */
const TOK = `zq${randomBytes(4)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])}`;
const CITY = `Porto${TOK}`;

let app: TestApp;
let educator: SignedInUser;
let learner: SignedInUser;
const ids: Record<'A' | 'B' | 'C' | 'F' | 'D', string> = { A: '', B: '', C: '', F: '', D: '' };

/** A course of `user` (fields over the support defaults); with a session, published. */
async function createCourse(
  user: SignedInUser,
  body: Record<string, unknown>,
  session?: { startsOn: string; capacity: number },
): Promise<string> {
  const id = await makeCourse(app, user, body);
  if (session) {
    await makeSession(app, user, id, {
      startsOn: session.startsOn,
      endsOn: dayFromNow(120),
      capacity: session.capacity,
      timeZone: 'Europe/Lisbon',
    });
    await publish(app, user, id);
  }
  return id;
}

async function firstSession(courseId: string, cookie: string): Promise<string> {
  const res = await get(app, `/api/courses/${courseId}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions[0].id;
}

async function search(query: Record<string, string | number>, cookie = learner.cookie) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return get(app, `/api/courses/search?${qs}`, { cookie });
}

/** The ids of a successful search, in order (checked against the response schema). */
async function found(query: Record<string, string | number>): Promise<string[]> {
  const res = await search(query);
  expect(res.statusCode, res.body).toBe(200);
  return searchResult.parse(res.json()).items.map((c) => c.id);
}

const letterOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? '?';
const letters = (list: string[]) => list.map(letterOf).join('');
const sorted = (s: string) => [...s].sort().join('');

beforeAll(async () => {
  app = await buildTestApp();
  educator = await createSignedInUser(app, { firstName: 'Grace', lastName: `Hop${TOK}` });
  learner = await createSignedInUser(app);
  const becomes = await post(
    app,
    '/api/educators',
    { headline: 'Programming teacher', bio: 'I have taught programming for twenty years.', subjects: ['Programming'], links: [] },
    { cookie: educator.cookie },
  );
  expect(becomes.statusCode, becomes.body).toBe(201);

  // A: title, summary and description words of its own; free, online, beginner, soonest.
  ids.A = await createCourse(
    educator,
    {
      title: `Python ${TOK}alpha`,
      summary: `Learn the ${TOK}summ language with friends.`,
      description: `Hands-on sessions. ${TOK}descr ${TOK}all ${TOK}tier`,
      category: 'coding',
      level: 'beginner',
      format: 'online',
      priceCents: 0,
    },
    { startsOn: dayFromNow(10), capacity: 5 },
  );
  // B: free, in person, advanced, one seat (taken below), cooking.
  ids.B = await createCourse(
    educator,
    {
      title: `Sourdough Baking ${TOK}beta`,
      summary: 'Bread for everyone, from starter to loaf.',
      description: `Flour and water. ${TOK}all`,
      category: 'cooking',
      level: 'advanced',
      format: 'in_person',
      city: CITY,
      address: '1 Rua Nova',
      priceCents: 0,
    },
    { startsOn: dayFromNow(30), capacity: 1 },
  );
  // C: paid, online, all levels, its title holds the "tier" word A has in its description.
  ids.C = await createCourse(
    educator,
    {
      title: `Watercolor ${TOK}tier`,
      summary: 'Paint light and water in small groups.',
      description: `Brushes and paper. ${TOK}all ${TOK}deltb`,
      category: 'arts',
      level: 'all',
      format: 'online',
      priceCents: 12_000,
    },
    { startsOn: dayFromNow(60), capacity: 10 },
  );
  ids.F = await createCourse(
    educator,
    {
      title: `Guitar ${TOK}delta`,
      summary: 'Chords, rhythm and your first songs.',
      description: `Bring a guitar. ${TOK}all`,
      category: 'music',
      level: 'intermediate',
      format: 'online',
      priceCents: 3_000,
    },
    { startsOn: dayFromNow(90), capacity: 10 },
  );
  // D: a draft that matches everything: never found.
  ids.D = await createCourse(educator, {
    title: `Python ${TOK}draft ${TOK}alpha`,
    summary: `Draft ${TOK}summ summary text.`,
    description: `${TOK}all ${TOK}descr ${TOK}tier`,
    category: 'coding',
    level: 'beginner',
  });

  // The learner takes A (rates it 5) and B's only seat (rates it 3).
  for (const [id, rating] of [
    [ids.A, 5],
    [ids.B, 3],
  ] as const) {
    const sessionId = await firstSession(id, learner.cookie);
    const enrol = await post(app, `/api/courses/${id}/sessions/${sessionId}/enrol`, undefined, { cookie: learner.cookie });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect(enrol.json().enrolment.status).toBe('active');
    await firstClassTookPlace(app, id);
    const review = await call(app, 'PUT', `/api/courses/${id}/review`, { rating, text: 'Good' }, { cookie: learner.cookie });
    expect(review.statusCode, review.body).toBe(200);
  }
});

afterAll(async () => {
  await app?.close();
});

describe('GET /api/courses/search: what is found', () => {
  it('needs a session', async () => {
    const res = await get(app, `/api/courses/search?q=${TOK}all`);
    expect(res.statusCode).toBe(401);
  });

  it('finds a course by a word of its title, summary, description and by its educator name', async () => {
    expect(letters(await found({ q: `${TOK}alpha` }))).toBe('A');
    expect(letters(await found({ q: `${TOK}summ` }))).toBe('A');
    expect(letters(await found({ q: `${TOK}descr` }))).toBe('A');
    expect(sorted(letters(await found({ q: `hop${TOK}`, pageSize: 100 })))).toBe('ABCF');
    expect(sorted(letters(await found({ q: `Grace Hop${TOK}`, pageSize: 100 })))).toBe('ABCF');
  });

  it('answers cards with everything the result list shows', async () => {
    const res = await search({ q: `${TOK}beta`, category: 'cooking' });
    const body = searchResult.parse(res.json());
    expect(body).toMatchObject({ page: 1, pageSize: 20, total: 1, fuzzy: false });
    expect(body.items[0]).toEqual({
      id: ids.B,
      title: `Sourdough Baking ${TOK}beta`,
      summary: 'Bread for everyone, from starter to loaf.',
      category: 'cooking',
      level: 'advanced',
      format: 'in_person',
      city: CITY,
      coverImage: null,
      priceCents: 0,
      currency: 'usd',
      ratingAvg: 3,
      ratingCount: 1,
      educatorName: `Grace Hop${TOK}`,
      nextStartOn: dayFromNow(30),
      seatsLeft: 0,
      minAge: null,
      maxAge: null,
    } satisfies CourseCard);
  });

  it('never shows a draft, even to its educator', async () => {
    expect(await found({ q: `${TOK}draft` })).toEqual([]);
    const mine = await search({ q: `${TOK}draft` }, educator.cookie);
    expect(mine.json().items).toEqual([]);
    expect(await found({ q: `${TOK}all`, pageSize: 100 })).not.toContain(ids.D);
  });

  it('tolerates typos: "pyhton" finds Python, and fuzzy says so', async () => {
    const res = await search({ q: 'pyhton', pageSize: 100 });
    const body = searchResult.parse(res.json());
    expect(body.fuzzy).toBe(true);
    expect(body.items.map((c) => c.id)).toContain(ids.A);
    expect(body.items.map((c) => c.id)).not.toContain(ids.D);
    // A transposition inside a long word of this run: only A has it.
    const typo = searchResult.parse((await search({ q: `${TOK}alpah` })).json());
    expect(typo.fuzzy).toBe(true);
    expect(letters(typo.items.map((c) => c.id))).toBe('A');
    // Filters hold for typo matches too.
    expect(searchResult.parse((await search({ q: `${TOK}alpah`, category: 'music' })).json()).items).toEqual([]);
  });

  it('few exact matches: they come first, then the matches of the corrected words', async () => {
    // C has "deltb" in its description only; it is no title word, one edit from F's "delta".
    const body = searchResult.parse((await search({ q: `${TOK}deltb` })).json());
    expect(letters(body.items.map((c) => c.id))).toBe('CF');
    expect(body).toMatchObject({ total: 2, fuzzy: true });
    // A word of a title is never "corrected", even when it finds little.
    const known = searchResult.parse((await search({ q: `${TOK}beta` })).json());
    expect(letters(known.items.map((c) => c.id))).toBe('B');
    expect(known.fuzzy).toBe(false);
  });

  it('exact matches are not fuzzy, and words that match nothing at all answer an empty page', async () => {
    expect(searchResult.parse((await search({ q: `${TOK}all` })).json()).fuzzy).toBe(false);
    const none = searchResult.parse((await search({ q: 'qqqqxxxxzzzz' })).json());
    expect(none).toMatchObject({ items: [], total: 0, fuzzy: false });
  });

  it('a course published after a search is found by the same search at once (the cache is dropped)', async () => {
    expect(await found({ q: `${TOK}late` })).toEqual([]);
    const id = await createCourse(
      educator,
      { title: `Chess ${TOK}late`, summary: 'Openings, tactics and endgames.', description: 'Bring a board.', category: 'sports' },
      { startsOn: dayFromNow(15), capacity: 8 },
    );
    expect(await found({ q: `${TOK}late` })).toEqual([id]);
    const archived = await post(app, `/api/courses/${id}/archive`, undefined, { cookie: educator.cookie });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await found({ q: `${TOK}late` })).toEqual([]);
  });
});

describe('GET /api/courses/search: filters', () => {
  const scoped = async (filters: Record<string, string | number>) =>
    sorted(letters(await found({ q: `${TOK}all`, pageSize: 100, ...filters })));

  it('category', async () => {
    expect(await scoped({ category: 'cooking' })).toBe('B');
    expect(await scoped({ category: 'coding' })).toBe('A');
  });

  it('free, and a price range in cents', async () => {
    expect(await scoped({ free: 'true' })).toBe('AB');
    expect(await scoped({ free: 'false' })).toBe('CF');
    expect(await scoped({ minPrice: 2000, maxPrice: 5000 })).toBe('F');
    expect(await scoped({ minPrice: 3000 })).toBe('CF');
    expect(await scoped({ maxPrice: 0 })).toBe('AB');
  });

  it('format, and the city without regard to case', async () => {
    expect(await scoped({ format: 'in_person' })).toBe('B');
    expect(await scoped({ format: 'online' })).toBe('ACF');
    expect(await scoped({ format: 'in_person', city: CITY.toUpperCase() })).toBe('B');
    expect(await scoped({ city: ` ${CITY.toLowerCase()} ` })).toBe('B');
    expect(await scoped({ city: 'Elsewhere' })).toBe('');
  });

  it('starts after a date (the next session to come)', async () => {
    expect(await scoped({ startsAfter: dayFromNow(20) })).toBe('BCF');
    expect(await scoped({ startsAfter: dayFromNow(61) })).toBe('F');
    expect(await scoped({ startsAfter: dayFromNow(10) })).toBe('ABCF');
  });

  it('level: a course for all levels suits every level', async () => {
    expect(await scoped({ level: 'beginner' })).toBe('AC');
    expect(await scoped({ level: 'advanced' })).toBe('BC');
    expect(await scoped({ level: 'all' })).toBe('C');
  });

  it('has seats: the full session of B leaves it out', async () => {
    expect(await scoped({ hasSeats: 'true' })).toBe('ACF');
    expect(await scoped({ hasSeats: 'false' })).toBe('ABCF');
  });

  it('filters combine, and work without words too', async () => {
    expect(await scoped({ free: 'true', format: 'online', level: 'beginner' })).toBe('A');
    const byCity = await found({ city: CITY, pageSize: 100 });
    expect(letters(byCity)).toBe('B');
  });

  it('an unknown category, a bad date or a price range upside down answers 400 naming the field', async () => {
    const cat = await search({ q: 'x', category: 'astrology' });
    expect(cat.statusCode).toBe(400);
    expect(cat.json().error.fields).toHaveProperty('category');
    const date = await search({ startsAfter: 'tomorrow' });
    expect(date.statusCode).toBe(400);
    expect(date.json().error.fields).toHaveProperty('startsAfter');
    const range = await search({ minPrice: 5000, maxPrice: 1000 });
    expect(range.statusCode).toBe(400);
    expect(range.json().error.fields).toHaveProperty('maxPrice');
    const neg = await search({ minPrice: -1 });
    expect(neg.statusCode).toBe(400);
  });
});

describe('GET /api/courses/search: sorts and pages', () => {
  it('soonest is the default without words; relevance the default with words', async () => {
    expect(letters(await found({ q: `${TOK}all`, sort: 'soonest' }))).toBe('ABCF');
    expect(letters(await found({ city: CITY }))).toBe('B');
    // Relevance: a title match (C) before a description match (A), although A is rated higher.
    expect(letters(await found({ q: `${TOK}tier` }))).toBe('CA');
    expect(letters(await found({ q: `${TOK}tier`, sort: 'relevance' }))).toBe('CA');
  });

  it('an excluded word excludes a course whose title matches the rest', async () => {
    // C has "tier" in its title and "brushes" in its description; A has "tier" only.
    const list = await found({ q: `${TOK}tier -brushes` });
    expect(list).toContain(ids.A);
    expect(list).not.toContain(ids.C);
  });

  it('price, cheapest first', async () => {
    const list = letters(await found({ q: `${TOK}all`, sort: 'price' }));
    expect(sorted(list.slice(0, 2))).toBe('AB');
    expect(list.slice(2)).toBe('FC');
  });

  it('rating, best first (then the number of reviews)', async () => {
    const list = letters(await found({ q: `${TOK}all`, sort: 'rating' }));
    expect(list.slice(0, 2)).toBe('AB');
    expect(sorted(list.slice(2))).toBe('CF');
  });

  it('pages through the results with the total on every page', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await search({ q: `${TOK}all`, sort: 'soonest', pageSize: 2, page });
      const body = searchResult.parse(res.json());
      expect(body).toMatchObject({ page, pageSize: 2, total: 4 });
      pages.push(letters(body.items.map((c) => c.id)));
    }
    expect(pages).toEqual(['AB', 'CF', '']);
    // Relevance pages too (tier 2 continues after tier 1).
    const r1 = searchResult.parse((await search({ q: `${TOK}tier`, pageSize: 1, page: 1 })).json());
    const r2 = searchResult.parse((await search({ q: `${TOK}tier`, pageSize: 1, page: 2 })).json());
    expect(letters([...r1.items, ...r2.items].map((c) => c.id))).toBe('CA');
    expect(r2.total).toBe(2);
  });

  it('at most 100 a page: 101 answers 400', async () => {
    expect((await search({ q: `${TOK}all`, pageSize: 100 })).statusCode).toBe(200);
    const res = await search({ q: `${TOK}all`, pageSize: 101 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('pageSize');
    expect((await search({ page: 0 })).statusCode).toBe(400);
  });
});

describe('GET /api/courses/search: cost', () => {
  /** Every statement the app's pool runs while `fn` runs (PostgreSQL or PGlite). */
  async function statements(fn: () => Promise<unknown>): Promise<string[]> {
    const client = (app.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const original = client.query;
    const seen: string[] = [];
    client.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0];
      seen.push(typeof first === 'string' ? first : String((first as { text?: string }).text ?? ''));
      return original.apply(this, args);
    } as typeof client.query;
    // The prepared search statement runs on connections of its own (search-routes.ts).
    const runner = app.searchRunner;
    const prepared = runner.prepared;
    if (prepared) {
      runner.prepared = (name, query) => {
        seen.push('params' in query ? query.sql : new PgDialect().sqlToQuery(query).sql);
        return prepared(name, query);
      };
    }
    try {
      await fn();
    } finally {
      client.query = original;
      runner.prepared = prepared;
    }
    return seen;
  }
  const onCourses = (list: string[]) => list.filter((s) => /\bfrom course\b/.test(s));

  it('one statement per search whatever the page size (no N+1); two for a one-word typo; none when cached', async () => {
    // A query string no one has sent yet, so the cache cannot answer.
    for (const pageSize of [1, 100]) {
      const run = await statements(() => search({ q: `${TOK}all`, sort: 'rating', pageSize, page: 1 }));
      expect(onCourses(run)).toHaveLength(1);
      expect(run.length).toBeLessThanOrEqual(3); // + the session lookup (+ its occasional touch)
    }
    const typo = await statements(() => search({ q: `${TOK}deltq`, pageSize: 7 }));
    expect(onCourses(typo)).toHaveLength(2);
    // A one-word typo's nearest known words come with its first page: no statement of their own.
    expect(typo.filter((s) => /\bfrom "?search_word\b/.test(s) && !/\bfrom course\b/.test(s))).toEqual([]);
    // The same search again comes from the cache. (Other test files write courses at the
    // same time, and any course write drops the cache: a few tries.)
    let fromCache = false;
    for (let i = 0; i < 5 && !fromCache; i++) {
      await search({ q: `${TOK}deltq`, pageSize: 7 });
      fromCache = onCourses(await statements(() => search({ q: `${TOK}deltq`, pageSize: 7 }))).length === 0;
    }
    expect(fromCache).toBe(true);
    const explore = await statements(() => get(app, '/api/explore?fresh=1', { cookie: learner.cookie }));
    expect(onCourses(explore).length).toBeLessThanOrEqual(1);
  });

  it('an uncached one-word search reads the session in its own statement (plain, filtered, misspelt)', async () => {
    const sessionOnly = (list: string[]) => list.filter((s) => /\bfrom session s\b/.test(s) && !/\bcourse_term\b/.test(s));
    const queries: Record<string, string | number>[] = [
      { q: `${TOK}alpha`, pageSize: 11 },
      { q: `${TOK}alpha`, pageSize: 11, format: 'online', maxPrice: 50_000 },
      { q: `${TOK}alphq`, pageSize: 11 },
    ];
    for (const query of queries) {
      // A page size no one has asked for yet: the cache cannot answer.
      const seen: string[] = [];
      let res: Awaited<ReturnType<typeof search>> | undefined;
      seen.push(...(await statements(async () => (res = await search(query)))));
      expect(res!.statusCode, res!.body).toBe(200);
      expect(letters(searchResult.parse(res!.json()).items.map((c) => c.id))).toBe('A');
      // The session lookup is in the search's statement: no statement of its own.
      expect(sessionOnly(seen)).toEqual([]);
      expect(seen.filter((s) => /\bfrom session s\b/.test(s) && /\bcourse_term\b/.test(s))).toHaveLength(1);
    }
  });

  it('a one-word search behind an ended session or a banned user answers 401 and finds nothing for them', async () => {
    const ended = await createSignedInUser(app);
    const banned = await createSignedInUser(app);
    await app.database.db.execute(sql`update session set expires_at = now() - interval '1 minute' where user_id = ${ended.id}`);
    await app.database.db.execute(sql`update "user" set banned = true where id = ${banned.id}`);
    // Each query once with a page size no one asked for (the cache cannot answer), then again
    // (the cache answers: the session is still checked).
    for (const pageSize of [13, 13]) {
      for (const user of [ended, banned]) {
        const res = await search({ q: `${TOK}alpha`, pageSize }, user.cookie);
        expect(res.statusCode, res.body).toBe(401);
        expect(res.body).toMatch(/session has ended/i);
      }
    }
    // The same search, at the same time, by a signed-in learner and a user whose session
    // ended: whichever computes it, each gets their own answer.
    const [mine, theirs] = await Promise.all([
      search({ q: `${TOK}alpha`, pageSize: 14 }),
      search({ q: `${TOK}alpha`, pageSize: 14 }, ended.cookie),
    ]);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(letters(searchResult.parse(mine.json()).items.map((c) => c.id))).toBe('A');
    expect(theirs.statusCode).toBe(401);
  });

  it('EXPLAIN: with a few thousand courses the search uses its indexes', async () => {
    const db = app.database.db;
    const plans: Record<string, string> = {};
    const explain = async (name: string, p: Partial<SearchParams>, tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => {
      const params = { sort: 'relevance', page: 1, pageSize: 20, ...p } as SearchParams;
      const res = (await tx.execute(sql`explain (costs off) ${searchSql(params)}`)) as unknown as { rows: Record<string, string>[] };
      plans[name] = res.rows.map((r) => Object.values(r)[0]).join('\n');
    };
    const rollback = new Error('rollback');
    await db
      .transaction(async (tx) => {
        // 3000 published courses, visible to this transaction only, then fresh statistics.
        await tx.execute(sql`
        insert into course (educator_id, educator_name, title, summary, description, category, level, language, format, city, price_cents, currency,
                            refund_policy, status, rating_avg, rating_count, next_start_on, seats_left)
        select ${educator.id}, 'Some Teacher',
          (array['Python', 'Pottery', 'Spanish', 'Yoga', 'Piano', 'Chess'])[1 + i % 6] || ' course ' || i,
          'Summary of course number ' || i || ' for curious learners.',
          'Description with common words: practice, projects, feedback. ' || case when i % 50 = 0 then 'rareword' else '' end,
          (array['coding', 'arts', 'languages', 'sports', 'music', 'other'])[1 + i % 6], 'all', 'English',
          case when i % 3 = 0 then 'in_person' else 'online' end, case when i % 3 = 0 then 'Lisbon' end,
          (i % 10) * 1000, 'usd', 'moderate', 'published', (i % 5) + 1, i % 40, current_date + (i % 200), i % 7
        from generate_series(1, 3000) i`);
        await tx.execute(sql`analyze course`);
        // The answer is the plain definition of relevance and of the capped total, whichever
        // path the statement takes (index-only walk, total settled by title matches or not).
        // The prepared shape (relevance, words, no filter) runs with a generic plan in the app:
        // here too (PREPARE under force_generic_plan), beside the same SQL planned for its values.
        await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
        let n = 0;
        const generic = async (params: SearchParams) => {
          const { sql: text, params: values } = new PgDialect().sqlToQuery(searchSql(params));
          const name = `search_generic_${n++}`;
          await tx.execute(sql.raw(`prepare ${name} as ${text}`));
          const literal = (v: unknown) =>
            v === null ? 'null' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
          return (await tx.execute(sql.raw(`execute ${name}(${values.map(literal).join(', ')})`))) as unknown as {
            rows: { total: number; items: CourseCard[] }[];
          };
        };
        const totalOfRow = (params: SearchParams, row: unknown) =>
          isOneWordShape(params)
            ? oneWordTotal(row as Parameters<typeof oneWordTotal>[0], false, 0).total
            : (row as { total: number }).total;
        for (const [q, page, pageSize] of [
          ['python', 1, 20],
          ['python', 3, 7],
          ['course', 1, 20],
          ['course', 2, 100],
          ['practice', 2, 20],
          ['rareword', 1, 100],
          ['pottery -rareword', 1, 20],
        ] as const) {
          const params = { q, sort: 'relevance', page, pageSize } as SearchParams;
          const got = (await tx.execute(searchSql(params))) as unknown as { rows: { total: number; items: string }[] };
          if (isPreparedShape(params) || isOneWordShape(params))
            expect((await generic(params)).rows[0], `${q}, generic plan`).toEqual(got.rows[0]);
          // One word: the total is exact (search_lexeme), else counted up to 1000.
          const cap = isOneWordShape(params) ? 1_000_000 : 1000;
          const want = (await tx.execute(sql`
          select id, (select least(count(*), ${cap}::int)::int from course where status = 'published' and search @@ websearch_to_tsquery('english', ${q})) as total
          from course, websearch_to_tsquery('english', ${q}) w
          where status = 'published' and search @@ w
          order by case when search_title @@ w and search @@ w then 1 else 2 end, (next_start_on is null), quality desc, id
          offset ${(page - 1) * pageSize} limit ${pageSize}`)) as unknown as { rows: { id: string; total: number }[] };
          expect(
            (JSON.parse(got.rows[0].items) as CourseCard[]).map((c) => c.id),
            q,
          ).toEqual(want.rows.map((r) => r.id));
          if (want.rows.length) expect(totalOfRow(params, got.rows[0]), q).toBe(want.rows[0].total);
        }
        const totalOf = async (p: Partial<SearchParams>) => {
          const params = { sort: 'relevance', page: 1, pageSize: 1, ...p } as SearchParams;
          return totalOfRow(params, ((await tx.execute(searchSql(params))) as unknown as { rows: unknown[] }).rows[0]);
        };
        const countOf = async (q: string) =>
          (
            (await tx.execute(
              sql`select count(*)::int as n from course where status = 'published' and search @@ websearch_to_tsquery('english', ${q})`,
            )) as unknown as { rows: { n: number }[] }
          ).rows[0].n;
        // One word: exact from the lexeme counts (other test files' courses count too).
        expect(await totalOf({ q: 'course' })).toBe(await countOf('course')); // 3000+ title matches
        expect(await totalOf({ q: 'practice' })).toBe(await countOf('practice')); // description only
        expect(await totalOf({ q: 'course practice' })).toBe(1000); // two words: counted up to 1000
        expect(await totalOf({ q: 'rareword' })).toBe(60);
        expect(await totalOf({ q: 'rareword', category: 'coding', sort: 'soonest' })).toBe(20); // filtered: one count
        // One word: planned as on the search connections (search-routes.ts).
        await tx.execute(sql`analyze course_term`);
        const settings = [...SEARCH_CONNECTION_OPTIONS.matchAll(/-c (\w+)=(\w+)/g)];
        for (const [, name, value] of settings) await tx.execute(sql.raw(`set local ${name} = ${value}`));
        await explain('relevance, common title word', { q: 'python' }, tx);
        await explain('relevance, rare word', { q: 'rareword' }, tx);
        for (const [, name] of settings) await tx.execute(sql.raw(`reset ${name}`));
        await explain('filters only, soonest', { category: 'arts', hasSeats: 'true', sort: 'soonest' }, tx);
        await explain('price sort', { q: 'pottery', sort: 'price' }, tx);
        await tx.execute(sql`insert into search_word (word) select 'word' || i from generate_series(1, 3000) i on conflict do nothing`);
        await tx.execute(sql`analyze search_word`);
        const fuzzy = (await tx.execute(
          sql`explain (costs off) select word from search_word order by word <-> ${'pyhton'} limit 8`,
        )) as unknown as { rows: Record<string, string>[] };
        plans.fuzzy = fuzzy.rows.map((r) => Object.values(r)[0]).join('\n');
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });

    const index = /(Bitmap Index Scan|Index Scan|Index Only Scan)( Backward)? (on|using) ((course|search_word)_\w+)/g;
    const used = (plan: string) => [...plan.matchAll(index)].map((m) => m[4]);
    expect(
      used(plans['relevance, common title word']).some((i) =>
        ['course_search_title_idx', 'course_relevance_idx', 'course_term_walk_idx'].includes(i),
      ),
      plans['relevance, common title word'],
    ).toBe(true);
    expect(
      used(plans['relevance, rare word']).some((i) => ['course_search_idx', 'course_search_title_idx', 'course_term_walk_idx'].includes(i)),
      plans['relevance, rare word'],
    ).toBe(true);
    expect(used(plans['filters only, soonest']), plans['filters only, soonest']).toContain('course_published_next_idx');
    expect(used(plans['price sort']).length, plans['price sort']).toBeGreaterThan(0);
    expect(used(plans.fuzzy), plans.fuzzy).toContain('search_word_trgm_idx');
  });
});

describe('GET /api/explore', () => {
  it('upcoming with seats, popular by rating, and courses near the viewer first', async () => {
    // The learner lives in the city of B, spelled another way.
    const moved = await patch(app, `/api/users/${learner.id}`, { city: CITY.toUpperCase() }, { cookie: learner.cookie });
    expect(moved.statusCode, moved.body).toBe(200);
    const res = await get(app, '/api/explore', { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const body = exploreResult.parse(res.json());
    // B is the only course in that city: first near you, then online courses.
    expect(body.nearYou[0].id).toBe(ids.B);
    expect(body.nearYou.slice(1).every((c) => c.format === 'online')).toBe(true);
    // Upcoming: a seat left, soonest first after the local ones; B is full.
    expect(body.upcoming.every((c) => c.seatsLeft > 0)).toBe(true);
    expect(body.upcoming.map((c) => c.id)).not.toContain(ids.B);
    const starts = body.upcoming.filter((c) => c.format === 'online').map((c) => c.nextStartOn!);
    expect(starts).toEqual([...starts].sort());
    // Popular: local first (B), then by rating; every course has a session to come.
    expect(body.popular[0].id).toBe(ids.B);
    expect(body.popular.every((c) => c.nextStartOn !== null)).toBe(true);
    // Nothing in person from another city.
    for (const list of [body.upcoming, body.popular, body.nearYou]) {
      expect(list.every((c) => c.format === 'online' || c.city?.toLowerCase() === CITY.toLowerCase())).toBe(true);
    }
  });

  it('without a city: no near-you shelf, the others online', async () => {
    const other = await createSignedInUser(app);
    const body = exploreResult.parse((await get(app, '/api/explore', { cookie: other.cookie })).json());
    expect(body.nearYou).toEqual([]);
    expect(body.upcoming.every((c) => c.format === 'online')).toBe(true);
    expect(body.upcoming.length).toBeGreaterThan(0);
  });

  it('needs a session', async () => {
    expect((await get(app, '/api/explore')).statusCode).toBe(401);
  });
});
