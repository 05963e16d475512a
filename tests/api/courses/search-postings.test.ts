import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { searchResult, type CourseCard } from '../../../src/shared/courses-schemas.js';
import type { SearchParams } from '../../../src/server/courses/search-parts.js';
import { EXACT_UP_TO, oneWordTotal } from '../../../src/server/courses/search-one-word.js';
import { searchSql } from '../../../src/server/courses/search-sql.js';
import { call, get, post } from '../../support/http.js';
import {
  courseBody,
  enrol,
  makeClassTimes,
  makeCourse,
  makeLearner,
  makeSession,
  publish,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';

/**
 * The search postings (course_term) and the lexeme counts (search_lexeme) the course
 * triggers keep (drizzle/0027, docs/decisions/0028-course-search-postings.md), and the
 * total of a one-word search (exact, estimated "about N", or counted). Every course carries
 * words of this run only (TOK), so other test files never change these counts.
 */
const TOK = `zp${randomBytes(4)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])}`;

const ctx = useCoursesApp();

/** The postings of a course as the trigger wrote them, and as they should be from the course row. */
async function postings(courseId: string) {
  const got = await queryRows<Record<string, unknown>>(
    ctx.app,
    sql`select lexeme, unbookable, quality, category, level, format, city, price_cents, next_start_on::text as next_start_on, seats_left
        from course_term where course_id = ${courseId} order by lexeme`,
  );
  const want = await queryRows<Record<string, unknown>>(
    ctx.app,
    sql`select l as lexeme, next_start_on is null as unbookable, quality, category, level, format, lower(city) as city, price_cents,
          next_start_on::text as next_start_on, seats_left
        from course, unnest(tsvector_to_array(search_title)) l where id = ${courseId} and status = 'published' order by l`,
  );
  return { got, want };
}

/** search_lexeme of this run's words, and the same counted over the published courses. */
async function lexemeCounts() {
  const got = await queryRows<{ lexeme: string; n_all: number; n_title: number }>(
    ctx.app,
    sql`select lexeme, n_all, n_title from search_lexeme where lexeme like ${TOK + '%'} and (n_all <> 0 or n_title <> 0) order by lexeme`,
  );
  const want = await queryRows<{ lexeme: string; n_all: number; n_title: number }>(
    ctx.app,
    sql`select a.word as lexeme, a.ndoc as n_all, coalesce(t.ndoc, 0) as n_title
        from ts_stat(${`select search from course where status = 'published' and search @@ '${TOK}alpha | ${TOK}beta | ${TOK}gamma'::tsquery`}) a
        left join ts_stat(${`select search_title from course where status = 'published' and search_title @@ '${TOK}alpha | ${TOK}beta | ${TOK}gamma'::tsquery`}) t
          on t.word = a.word
        where a.word like ${TOK + '%'} order by a.word`,
  );
  return { got, want };
}

/**
 * course_card (drizzle/0035) against the courses, over the whole database (one snapshot, so
 * other test files' committed writes cannot break it): a card for every published course,
 * equal to course_card(course), and none for any other course or for a course that is gone.
 */
async function cardsOutOfStep() {
  return queryRows<{ course_id: string; problem: string }>(
    ctx.app,
    sql`select coalesce(c.id, k.course_id) as course_id,
          case when k.course_id is null then 'missing' when c.id is null then 'orphan' when c.status <> 'published' then 'not published'
            else 'stale' end as problem
        from course_card k full join (select * from course where status = 'published') c on c.id = k.course_id
        where k.course_id is null or c.id is null or k.card is distinct from course_card(c)
        union all
        select k.course_id, 'not published' from course_card k join course c on c.id = k.course_id where c.status <> 'published'`,
  );
}

async function expectInStep(courseIds: string[]) {
  for (const id of courseIds) {
    const { got, want } = await postings(id);
    expect(got, id).toEqual(want);
  }
  expect(await cardsOutOfStep()).toEqual([]);
  const counts = await lexemeCounts();
  expect(counts.got).toEqual(counts.want);
}

describe('search postings and lexeme counts follow the courses', () => {
  it('on publish, edit, seat changes, archive', async () => {
    const { app, educator } = ctx;
    const body = courseBody({ title: `${TOK}alpha Pottery`, description: `Clay. ${TOK}beta and ${TOK}gamma.` });
    const a = await makeCourse(app, educator, body);
    const b = await makeCourse(app, educator, courseBody({ title: `${TOK}beta Weaving`, description: `${TOK}alpha threads.` }));
    // Drafts: no postings, no counts.
    expect((await postings(a)).got).toEqual([]);
    expect((await lexemeCounts()).got).toEqual([]);

    const sessionA = await makeSession(app, educator, a, { capacity: 2 });
    await makeClassTimes(app, educator, a, sessionA);
    await publish(app, educator, a);
    const sessionB = await makeSession(app, educator, b);
    await publish(app, educator, b);
    await expectInStep([a, b]);
    expect((await lexemeCounts()).got).toEqual([
      { lexeme: `${TOK}alpha`, n_all: 2, n_title: 1 },
      { lexeme: `${TOK}beta`, n_all: 2, n_title: 1 },
      { lexeme: `${TOK}gamma`, n_all: 1, n_title: 0 },
    ]);
    // The title's words and the educator's name (Grace Hopper).
    expect((await postings(a)).got.map((r) => r.lexeme)).toEqual(['grace', 'hopper', 'potteri', `${TOK}alpha`]);
    expect((await postings(a)).got[0]).toMatchObject({ seats_left: 2, unbookable: false, category: 'arts', format: 'online' });

    // A seat taken: the postings carry the new seat count (the hasSeats filter reads it there).
    const learner = await makeLearner(app);
    expect((await enrol(app, learner, a, sessionA)).statusCode).toBe(200);
    await expectInStep([a]);
    expect((await postings(a)).got[0]).toMatchObject({ seats_left: 1 });

    // An edit: new title words, other filter columns.
    const edited = await call(
      app,
      'PUT',
      `/api/courses/${a}`,
      courseBody({
        title: `${TOK}gamma Ceramics`,
        description: 'Clay only.',
        category: 'music',
        format: 'in_person',
        city: 'Braga',
        address: '1 Rua',
      }),
      { cookie: educator.cookie },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    await expectInStep([a, b]);
    expect((await postings(a)).got.map((r) => [r.lexeme, r.city, r.category])).toEqual([
      ['ceram', 'braga', 'music'],
      ['grace', 'braga', 'music'],
      ['hopper', 'braga', 'music'],
      [`${TOK}gamma`, 'braga', 'music'],
    ]);
    expect((await lexemeCounts()).got).toEqual([
      { lexeme: `${TOK}alpha`, n_all: 1, n_title: 0 },
      { lexeme: `${TOK}beta`, n_all: 1, n_title: 1 },
      { lexeme: `${TOK}gamma`, n_all: 1, n_title: 1 },
    ]);

    // Archived: out of the postings and the counts. And the search agrees.
    expect((await post(app, `/api/courses/${b}/archive`, undefined, { cookie: educator.cookie })).statusCode).toBe(200);
    await expectInStep([a, b]);
    expect((await postings(b)).got).toEqual([]);
    expect((await lexemeCounts()).got).toEqual([{ lexeme: `${TOK}gamma`, n_all: 1, n_title: 1 }]);
    const res = await get(app, `/api/courses/search?q=${TOK}gamma`, { cookie: learner.cookie });
    expect(searchResult.parse(res.json())).toMatchObject({ total: 1, totalKind: 'exact', items: [{ id: a }] });
    void sessionB;
  });
});

describe('course cards follow the courses', () => {
  it('a search card shows a course as it is now, after every kind of change, through the API or straight in the database', async () => {
    const { app, educator } = ctx;
    const a = await makeCourse(app, educator, courseBody({ title: `${TOK}delta Knitting`, description: 'Wool.' }));
    const session = await makeSession(app, educator, a, { capacity: 3 });
    await makeClassTimes(app, educator, a, session);
    const card = async () =>
      (await queryRows<{ card: string }>(app, sql`select card from course_card where course_id = ${a}`)).map(
        (r) => JSON.parse(r.card) as CourseCard,
      )[0];
    const searched = async () => {
      const res = await get(app, `/api/courses/search?q=${TOK}delta`, { cookie: educator.cookie });
      return searchResult.parse(res.json()).items.find((c) => c.id === a);
    };
    // A draft has no card; published, its card is the search's.
    expect(await card()).toBeUndefined();
    await publish(app, educator, a);
    expect(await card()).toMatchObject({ id: a, title: `${TOK}delta Knitting`, seatsLeft: 3, ratingCount: 0 });
    expect(await searched()).toEqual(await card());

    // A seat taken through the API, an edit, then raw SQL (a script or another server).
    const learner = await makeLearner(app);
    expect((await enrol(app, learner, a, session)).statusCode).toBe(200);
    expect(await card()).toMatchObject({ seatsLeft: 2 });
    const edited = await call(app, 'PUT', `/api/courses/${a}`, courseBody({ title: `${TOK}delta Crochet`, description: 'Wool.' }), {
      cookie: educator.cookie,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await card()).toMatchObject({ title: `${TOK}delta Crochet` });
    await app.database.db.execute(sql`update course set rating_avg = 4.25, rating_count = 8, educator_name = 'Ada L.' where id = ${a}`);
    expect(await card()).toMatchObject({ ratingAvg: 4.25, ratingCount: 8, educatorName: 'Ada L.' });
    expect(await searched()).toEqual(await card());
    expect(await cardsOutOfStep()).toEqual([]);

    // Unpublished by SQL, then deleted: no card left behind.
    await app.database.db.execute(sql`update course set status = 'archived' where id = ${a}`);
    expect(await card()).toBeUndefined();
    await app.database.db.execute(sql`update course set status = 'published' where id = ${a}`);
    expect(await card()).toMatchObject({ id: a });
    await app.database.db.execute(sql`delete from enrolment where course_id = ${a}`);
    await app.database.db.execute(sql`delete from course where id = ${a}`);
    expect(await card()).toBeUndefined();
    expect(await cardsOutOfStep()).toEqual([]);
  });
});

describe('the total of a one-word search', () => {
  it('exact without filters; about N with filters over many matches; exact again when few', async () => {
    const db = ctx.app.database.db;
    const { educator } = ctx;
    const rollback = new Error('rollback');
    const word = `${TOK}many`;
    await db
      .transaction(async (tx) => {
        // 2000 published courses with the word in the title, 1000 more with it in the
        // description only; a third in person, prices 0-90 dollars.
        await tx.execute(sql`
          insert into course (educator_id, educator_name, title, summary, description, category, level, language, format, city, price_cents,
                              currency, refund_policy, status, rating_avg, rating_count, next_start_on, seats_left)
          select ${educator.id}, 'Some Teacher',
            case when i <= 2000 then ${word} || ' course ' || i else 'Course ' || i end,
            'A summary.', case when i > 2000 then 'About ' || ${word} || '.' else 'Nothing more.' end,
            (array['coding', 'arts', 'languages'])[1 + i % 3], 'all', 'English',
            case when i % 3 = 0 then 'in_person' else 'online' end, case when i % 3 = 0 then 'Lisbon' end,
            (i % 10) * 1000, 'usd', 'moderate', 'published', (i % 5) + 1, i % 40, current_date + (i % 200), i % 7
          from generate_series(1, 3000) i`);
        const run = async (p: Partial<SearchParams>) => {
          const params = { q: word, sort: 'relevance', page: 1, pageSize: 20, ...p } as SearchParams;
          const row = ((await tx.execute(searchSql(params))) as unknown as { rows: Parameters<typeof oneWordTotal>[0][] }).rows[0];
          const filtered = Object.keys(p).some((k) => !['page', 'pageSize', 'q'].includes(k));
          return { ...oneWordTotal(row, filtered, row.shown), items: JSON.parse(row.items) as CourseCard[] };
        };
        const exact = async (where: ReturnType<typeof sql>) =>
          (
            (await tx.execute(
              sql`select count(*)::int as n from course where status = 'published' and search @@ to_tsquery('english', ${word}) and ${where}`,
            )) as unknown as { rows: { n: number }[] }
          ).rows[0].n;

        // No filter: the count the trigger keeps, exact.
        expect(await run({})).toMatchObject({ total: 3000, totalKind: 'exact' });
        // A filter over many matches: estimated from the title matches, near the truth.
        const online = await run({ format: 'online' });
        const truth = await exact(sql`format = 'online'`);
        expect(online.totalKind).toBe('about');
        expect(Math.abs(online.total - truth) / truth).toBeLessThan(0.1);
        expect(online.items.every((c) => c.format === 'online')).toBe(true);
        const cheap = await run({ maxPrice: 2000, category: 'arts' });
        const cheapTruth = await exact(sql`price_cents <= 2000 and category = 'arts'`);
        expect(cheap.totalKind).toBe('about');
        // A share of ~10 % in a sample of SAMPLE (1000) of the 2000 title postings, in random
        // (uuid) order: its relative standard error is ~6.7 %, so 0.3 is ~4.5 of them (0.15 failed
        // about one run in thirty).
        expect(Math.abs(cheap.total - cheapTruth) / cheapTruth).toBeLessThan(0.3);
        // Few matches: counted, exact.
        await tx.execute(sql`update course set status = 'archived' where educator_id = ${educator.id} and title like ${word + ' course %'}
          and split_part(title, ' ', 3)::int > 100`);
        await tx.execute(sql`update course set status = 'archived' where educator_id = ${educator.id} and title like 'Course %'`);
        expect(await run({})).toMatchObject({ total: 100, totalKind: 'exact' });
        expect(100).toBeLessThanOrEqual(EXACT_UP_TO);
        const few = await run({ format: 'online' });
        expect(few).toMatchObject({ total: await exact(sql`format = 'online'`), totalKind: 'exact' });
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
  });
});
