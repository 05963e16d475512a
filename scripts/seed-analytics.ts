/**
 * `npm run seed -- --courses N --big-educator <email>`: one educator with a large
 * catalogue for the analytics bench (issue 13): 500 published courses, two sessions each
 * (one started in the last year, one to come), 50k enrolments of 20k new learners, a
 * card payment for most of them (USD, GBP and EUR; dropped ones refunded in full),
 * unpaid checkouts, reviews and a year of daily course page views. Set-based, one
 * transaction, like scripts/seed-courses.ts (which calls it).
 */
import { randomBytes } from 'node:crypto';
import { timedSteps, type SqlRunner } from './seed-kit.js';

export interface BigEducatorOptions {
  /** The educator (an existing user; becomes an educator if not one yet). */
  email: string;
  courses?: number;
  enrolments?: number;
  log?: (line: string) => void;
}

export async function seedBigEducator(db: SqlRunner, opts: BigEducatorOptions) {
  const courses = opts.courses ?? 500;
  const enrolments = opts.enrolments ?? 50_000;
  const sessions = courses * 2;
  const perSession = Math.ceil(enrolments / sessions);
  const learners = Math.max(perSession * 400, Math.ceil(enrolments / 2.5));
  const batch = randomBytes(4).toString('hex');
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const { step } = timedSteps(db, log);

  await db.query('begin');
  try {
    const { rows } = await db.query(`select id, first_name || ' ' || last_name as name from "user" where email = $1`, [opts.email]);
    if (!rows.length) throw new Error(`--big-educator: no user ${opts.email}`);
    const educatorId = rows[0].id as string;
    await db.query(
      `insert into educator (user_id, bio, headline) values ($1, 'A large catalogue', 'Teaches everything') on conflict do nothing`,
      [educatorId],
    );
    await db.query(
      `create temp table big_course (n int primary key, id uuid not null, price int not null, currency text not null) on commit drop`,
    );
    await db.query(`create temp table big_learner (n int primary key, id uuid not null) on commit drop`);
    await db.query(
      `create temp table big_session (n int primary key, id uuid not null, course int not null, starts_on date not null) on commit drop`,
    );

    await step(
      'big: learners',
      `with ins as (
         insert into "user" (email, name, first_name, last_name, verified, created_at, updated_at)
         select 'big-' || $2 || '-' || i || '@agora.test', 'Learner ' || i, 'Learner', 'No. ' || i, true, now() - interval '400 days', now()
         from generate_series(0, $1::int - 1) i
         returning id, email)
       insert into big_learner (n, id) select split_part(split_part(email, '@', 1), '-', 3)::int, id from ins`,
      [learners, batch],
    );
    await step(
      'big: courses',
      `with g as (
         select i, gen_random_uuid() as id, 2000 + (i % 10) * 1500 as price, (array['usd', 'gbp', 'eur'])[1 + i % 3] as currency
         from generate_series(0, $1::int - 1) i),
       ins as (
         insert into course (id, educator_id, educator_name, title, summary, description, category, level, language, format,
                             price_cents, currency, refund_policy, status, created_at, updated_at, published_at)
         select id, $2, $3, 'Catalogue course ' || i, 'One of many courses', 'A course of the large catalogue.', 'arts', 'beginner', 'English',
                'online', price, currency, 'moderate', 'published', now() - interval '420 days', now(), now() - interval '410 days'
         from g returning id)
       insert into big_course (n, id, price, currency) select i, id, price, currency from g`,
      [courses, educatorId, rows[0].name],
    );
    // Two sessions per course: one started within the last year, one starting later.
    await step(
      'big: sessions',
      `with g as (
         select s, gen_random_uuid() as id, s / 2 as course,
           case when s % 2 = 0 then current_date - (5 + (s * 37) % 355) else current_date + (10 + (s * 11) % 90) end as starts_on
         from generate_series(0, $1::int - 1) s)
       insert into big_session (n, id, course, starts_on) select s, id, course, starts_on from g`,
      [sessions],
    );
    await step(
      'big: insert sessions',
      `insert into course_session (id, course_id, starts_on, ends_on, capacity, min_to_run, time_zone, status, seats_taken, created_at)
       select s.id, c.id, s.starts_on, s.starts_on + 42, ${perSession + 10}, 1, 'Europe/London', 'scheduled', 0, now() - interval '400 days'
       from big_session s join big_course c on c.n = s.course`,
    );
    // Enrolment i: session i % S, learner spread so no learner holds two seats in one session.
    await step(
      'big: enrolments',
      `create temp table big_enrolment on commit drop as
       select i, gen_random_uuid() as id, s.id as session_id, c.id as course_id, c.price, c.currency, l.id as learner_id,
         case when i % 13 = 0 then 'dropped' when i % 41 = 0 then 'waitlisted' else 'active' end as status,
         least(now() - interval '1 hour', s.starts_on::timestamptz - make_interval(days => (i * 7) % 60, mins => i % 1440)) as created_at
       from generate_series(0, $1::int - 1) i
         join big_session s on s.n = i % $2::int
         join big_course c on c.n = s.course
         join big_learner l on l.n = ((i / $2::int) * 397 + (i % $2::int) * 13) % $3::int`,
      [enrolments, sessions, learners],
    );
    await step(
      'big: insert enrolments',
      `insert into enrolment (id, session_id, course_id, learner_id, status, created_at, updated_at, dropped_at)
       select id, session_id, course_id, learner_id, status, created_at, now(), case when status = 'dropped' then created_at + interval '2 days' end
       from big_enrolment`,
    );
    await step(
      'big: seats taken',
      `update course_session s set seats_taken = t.n
       from (select session_id, count(*)::int as n from big_enrolment where status = 'active' group by session_id) t where t.session_id = s.id`,
    );
    // Most seats were paid by card (10% fee); a dropped seat was refunded in full. Some checkouts were never paid.
    await step(
      'big: purchases',
      `create temp table big_purchase on commit drop as
       select gen_random_uuid() as purchase_id, e.*, e.i % 10 <> 0 as paid from big_enrolment e where e.status <> 'waitlisted' and e.i % 5 <> 4`,
    );
    await step(
      'big: insert purchases',
      `insert into purchase (id, user_id, kind, course_id, session_id, educator_id, enrolment_id, amount_cents, currency, fee_percent, status, created_at, updated_at, fulfilled_at)
       select purchase_id, learner_id, 'course_payment', course_id, session_id, $1, case when paid then id end, price, currency, 10,
              case when not paid then 'expired' when status = 'dropped' then 'refunded' else 'fulfilled' end,
              created_at - interval '5 minutes', created_at, case when paid then created_at end
       from big_purchase`,
      [educatorId],
    );
    await step(
      'big: insert payments',
      `insert into payment (purchase_id, user_id, educator_id, charge_id, amount_cents, fee_cents, refunded_cents, currency, paid_at)
       select purchase_id, learner_id, $1, 'ch_big_' || $2 || '_' || i, price, price / 10, case when status = 'dropped' then price else 0 end, currency, created_at
       from big_purchase where paid`,
      [educatorId, batch],
    );
    await step(
      'big: reviews',
      `insert into review (course_id, learner_id, rating, text, created_at, updated_at)
       select course_id, learner_id, 1 + (i * 7) % 5, 'Seeded review', created_at + interval '20 days', created_at + interval '20 days'
       from big_enrolment where status = 'active' and i % 4 = 0 and created_at + interval '20 days' < now()
       on conflict do nothing`,
    );
    await step(
      'big: views',
      `insert into course_view_day (course_id, educator_id, day, views)
       select c.id, $1::uuid, current_date - d, 3 + (c.n * 7 + d * 13) % 40 from big_course c, generate_series(0, 364) d`,
      [educatorId],
    );
    await step(
      'big: ratings',
      `update course c set rating_avg = r.avg, rating_count = r.n
       from (select course_id, avg(rating)::real as avg, count(*)::int as n from review group by course_id) r
       where r.course_id = c.id and c.educator_id = $1`,
      [educatorId],
    );
    await db.query('commit');
    await db.query('analyze course, course_session, enrolment, purchase, payment, review, course_view_day');
    log(`big educator ${opts.email}: ${courses} courses, ${enrolments} enrolments in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { educatorId, courses, enrolments, learners };
  } catch (err) {
    await db.query('rollback').catch(() => {});
    throw err;
  }
}
