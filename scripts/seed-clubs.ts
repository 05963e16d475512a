/**
 * `npm run seed -- --clubs 100000`: clubs at scale, set-based (the approach of
 * scripts/seed-courses.ts, docs/decisions/0005-course-search.md "The seed").
 *
 * Per 100k clubs: ~50k new users, ~1.1M memberships (owners, organisers, members, ~10%
 * of approval clubs' rows pending, a few removed or banned), ~300k events (from three
 * months ago to seven months ahead, 5% cancelled, 40% with a capacity), ~2M RSVPs (going
 * up to the capacity in the order answered, then waitlisted with queue_order, some not
 * going), with the derived columns (member_count, going_count, next_event_at) computed
 * from the rows, club_search_word and club search's postings (club_term, club_lexeme) filled and the "next event" refresh job of every club
 * with an event to come. Reminder jobs are not scheduled for seeded RSVPs.
 *
 * Word spreads for search: generic sentences of descriptions ("friendly", "weekend",
 * "newcomers") in 15-35% of clubs, city names ~2% each, topic words 0.3-2%, ~300 rare
 * words (kintsugi, falconry, ...) a few dozen each; 10% approval clubs; 20% online.
 */
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { CITIES, RARE_WORDS, seedUsers } from './seed-courses.js';
import {
  argValue,
  beginBulkLoad,
  countsOf,
  openSeedDatabase,
  pick,
  secondaryIndexes,
  textArray,
  timedSteps,
  type SeedResult,
  type SeedRunOptions,
  type SqlRunner,
} from './seed-kit.js';

export interface ClubSeedOptions extends SeedRunOptions {
  clubs: number;
}

export type ClubSeedResult = SeedResult;

/** Club topics by category (club categories: the course ones plus social and sport). */
const CLUB_TOPICS: [string, string[]][] = [
  ['arts', ['Photography', 'Sketching', 'Pottery', 'Knitting', 'Watercolour', 'Film', 'Theatre', 'Urban Sketching', 'Embroidery']],
  ['business', ['Startup', 'Entrepreneurs', 'Product Managers', 'Freelancers', 'Marketing', 'Investors', 'Women in Business']],
  ['coding', ['Python', 'JavaScript', 'Rust', 'Data Science', 'Open Source', 'Game Developers', 'Hackers', 'Machine Learning']],
  ['cooking', ['Sourdough', 'Supper', 'Vegan Cooking', 'Wine Tasting', 'Coffee', 'Street Food', 'Baking', 'Fermentation']],
  ['languages', ['Spanish Conversation', 'French Conversation', 'German', 'Japanese', 'Language Exchange', 'Italian', 'Mandarin']],
  ['mathematics', ['Puzzles', 'Maths Circle', 'Chess Problems', 'Statistics', 'Recreational Maths']],
  ['music', ['Choir', 'Jazz', 'Ukulele', 'Guitar', 'Songwriters', 'Folk Music', 'Drumming', 'Piano']],
  ['science', ['Astronomy', 'Birdwatching', 'Robotics', 'Citizen Science', 'Skeptics', 'Electronics', 'Botany']],
  ['sports', ['Yoga', 'Pilates', 'Climbing', 'Swimming', 'Tennis', 'Martial Arts', 'Dance']],
  ['wellbeing', ['Meditation', 'Mindfulness', 'Breathwork', 'Parents', 'Journaling', 'Walking for Health']],
  ['writing', ['Writers', 'Poetry', 'Book Club', 'Storytelling', 'Screenwriters', 'Bloggers']],
  ['other', ['Gardening', 'Board Games', 'Volunteering', 'Dog Walkers', 'Repair Cafe', 'Genealogy']],
  ['social', ['Newcomers', 'Expats', 'Pub Quiz', 'Trivia', 'Dinner', 'Singles', 'Over 50s', 'Night Owls']],
  ['sport', ['Running', 'Cycling', 'Football', 'Hiking', 'Volleyball', 'Badminton', 'Table Tennis', 'Ultimate Frisbee']],
];

/** %1$s the topic, %2$s the place ("London " or ""). */
const NAME_TEMPLATES = [
  '%2$s%1$s Club',
  '%2$s%1$s Circle',
  '%2$s%1$s Meetup',
  '%2$s%1$s Society',
  'The %2$s%1$s Collective',
  '%2$s%1$s Friends',
  '%2$s%1$s Group',
  '%2$s%1$s Crew',
  '%2$s%1$s Lovers',
  'Weekend %2$s%1$s',
  '%2$s%1$s Night',
  'Social %2$s%1$s',
  '%2$s%1$s for Beginners',
  '%2$s%1$s Enthusiasts',
];

/** Each club takes 3-5: each word lands in roughly 15-35% of clubs. */
const GENERIC_SENTENCES = [
  'Everyone is welcome, whatever your level: we are a friendly and relaxed group.',
  'We meet every week and share news in between.',
  'Newcomers often say the first meetup felt like seeing old friends.',
  'Bring a friend: the more the merrier.',
  'Meetups are free; some events ask a small contribution for the venue.',
  'We finish most evenings with a drink nearby.',
  'Organisers rotate, and anyone can propose an event.',
  'Check the events tab and answer so we know how many to expect.',
  'Families and children are welcome at weekend events.',
  'We are a volunteer-run community with no membership fee.',
  'Our chat group is the place for questions, photos and lifts.',
  'Beginners get a buddy for their first few sessions.',
  'We care about a safe, respectful and inclusive space.',
  'Seasonal trips and special outings are announced a month ahead.',
  'Photos from past gatherings are on our page.',
  'Quiet people are as welcome as talkative ones.',
];

const EVENT_WORDS_A = ['Monthly', 'Weekly', 'Open', 'Beginners', 'Social', 'Evening', 'Weekend', 'Summer', 'Winter', 'Special'];
const EVENT_WORDS_B = ['meetup', 'session', 'workshop', 'social', 'practice', 'outing', 'talk', 'night', 'gathering', 'walk'];
const ZONES = ['Europe/London', 'Europe/Paris', 'Europe/Berlin', 'America/New_York', 'America/Chicago', 'America/Los_Angeles'];

/** Tables the seed fills; their plain secondary indexes are rebuilt rather than maintained row by row. */
const TABLES = ['club', 'club_membership', 'club_event', 'club_rsvp', 'club_search_word', 'club_term', 'club_lexeme'];

/**
 * Adds one batch of clubs (with their own new users, memberships, events and RSVPs) in one
 * transaction: rows generated into temporary tables, the derived columns computed there,
 * plain secondary indexes dropped, one INSERT ... SELECT per table, indexes rebuilt,
 * VACUUM ANALYZE. Repeatable: each call adds a batch (the bench seeds 10k, then 90k).
 */
export async function seedClubs(db: SqlRunner, opts: ClubSeedOptions): Promise<ClubSeedResult> {
  const log = opts.log ?? (() => {});
  const n = Math.floor(opts.clubs);
  if (!(n >= 1)) throw new Error('--clubs must be at least 1');
  let users = Math.max(60, Math.round(n / 2));
  if (users % 104729 === 0) users += 1; // coprime with the stride below
  const batch = randomBytes(4).toString('hex');
  const seed = opts.seed ?? 0.37;
  const started = performance.now();
  const { step, timings } = timedSteps(db, log);

  const topics = CLUB_TOPICS.flatMap(([, list]) => list);
  const T = textArray(topics);
  const TC = textArray(CLUB_TOPICS.flatMap(([cat, list]) => list.map(() => cat)));
  const CITY = textArray(CITIES);
  const GEN = textArray(GENERIC_SENTENCES);
  const RARE = textArray(RARE_WORDS);

  // Consistent by construction: in replica mode (a superuser) per-row foreign-key checks
  // and triggers are skipped (the word trigger's work is done below).
  await beginBulkLoad(db, seed);
  try {
    // ---- 1. generate into temporary tables
    await seedUsers(db, step, 'club users', { into: 'seed_club_user', tag: 'seed-club', count: users, batch });

    await step(
      'generate clubs',
      `
      create temp table seed_club on commit drop as
      with g as (
        select i, gen_random_uuid() as id, 1 + floor(random() * ${topics.length})::int as t,
          random() < 0.2 as online, ${pick(CITY, 'random()')} as city0, random() < 0.1 as approval,
          random() as r_name, random() as r_place, random() as r_rare, random() as r_size
        from generate_series(1, $1::int) i
      )
      select i as n, id, (${T})[t] as topic, (${TC})[t] as category, online,
        case when online then null else city0 end as city,
        case when approval then 'approval' else 'public' end as visibility,
        -- at most one membership per user and club: never more members than users
        least($2::int, case when r_size < 0.01 then 100 + floor(random() * 200)::int else 2 + floor(power(random(), 3) * 31)::int end) as size,
        format(${pick(textArray(NAME_TEMPLATES), 'r_name')}, (${T})[t],
          case when online then 'Online ' when r_place < 0.7 then city0 || ' ' else '' end) as name,
        '## About us' || E'\n\n' || 'A club for people who love ' || lower((${T})[t])
          || case when online then ', meeting online' else ' in ' || city0 end || '. '
          || array_to_string(array(select ${pick(GEN, 'random()')} from generate_series(1, 3 + (i + floor(random() * 3)::int) % 3) where i > 0), ' ')
          || case when r_rare < 0.12 then E'\n\nNow and then we also try ' || ${pick(RARE, 'random()')} || '.' else '' end as description,
        now() - (random() * interval '900 days') as created_at
      from g`,
      [n, users],
    );

    // Memberships: k = 1 the owner, 2-3 organisers, then members; distinct users per club by
    // construction (user = (a + k * p) mod U, p prime and coprime to U).
    await step(
      'generate memberships',
      `
      create temp table seed_membership on commit drop as
      select c.id as club_id, c.n as club_n, k, u.id as user_id,
        case when k = 1 then 'owner' when k <= 1 + (c.n % 3) and k < c.size then 'organiser' else 'member' end as role,
        case when k = 1 then 'active'
             when c.visibility = 'approval' and r < 0.12 then 'pending'
             when r > 0.985 then 'removed' when r > 0.98 then 'banned' else 'active' end as state,
        c.created_at + (k * interval '3 hours') + random() * interval '60 days' as created_at
      from (select c.*, k, random() as r from seed_club c, lateral generate_series(1, c.size) k) c
      join seed_club_user u on u.n = 1 + ((c.n::bigint * 7919 + c.k::bigint * 104729) % $1::int)::int`,
      [users],
    );
    await step(
      'active members',
      `create temp table seed_active on commit drop as
       select club_id, user_id, row_number() over (partition by club_id order by k)::int as ak from seed_membership where state = 'active'`,
    );
    await db.query(`create index on seed_active (club_id, ak)`);

    // Events: 0-6 per club (3 on average), three months back to seven ahead, on the hour.
    await step(
      'generate events',
      `
      create temp table seed_event on commit drop as
      select gen_random_uuid() as id, c.id as club_id, c.online, c.city,
        ${pick(textArray(EVENT_WORDS_A), 'random()')} || ' ' || ${pick(textArray(EVENT_WORDS_B), 'random()')} as title,
        date_trunc('hour', now() + (random() * 300 - 90) * interval '1 day') as starts_at,
        ${pick(textArray(ZONES), 'random()')} as time_zone,
        case when random() < 0.4 then 5 + floor(random() * 26)::int end as capacity,
        case when random() < 0.05 then 'cancelled' else 'scheduled' end as status,
        coalesce(m.n, 0) as members, c.n as club_n, e
      from seed_club c left join (select club_id, count(*)::int as n from seed_active group by club_id) m on m.club_id = c.id,
        lateral generate_series(1, 6) e
      where e <= floor(random() * 7)::int + 0 * c.n`,
    );

    // RSVPs from active members, distinct per event (offset + j mod members); going in the
    // order answered up to the capacity, then waitlisted in that order; ~10% not going.
    await step(
      'generate rsvps',
      `
      create temp table seed_rsvp on commit drop as
      with r as (
        select e.id as event_id, e.club_id, e.capacity, e.starts_at, j,
          1 + ((off + j) % e.members) as ak, random() < 0.1 as declines
        from (select e.*, floor(random() * greatest(e.members, 1))::int as off,
                least(e.members, floor(random() * e.members * 1.3)::int) as answers
              from seed_event e where e.members > 0) e,
          lateral generate_series(1, e.answers) j
      ), ranked as (
        select r.*, a.user_id,
          case when declines then null else row_number() over (partition by event_id, declines order by j) end as rank
        from r join seed_active a on a.club_id = r.club_id and a.ak = r.ak
      )
      select event_id, user_id,
        case when declines then 'not_going' when capacity is null or rank <= capacity then 'going' else 'waitlisted' end as status,
        starts_at - (40 - j) * interval '6 hours' - interval '1 day' as answered_at, j
      from ranked`,
    );

    await step('derived counts', [
      `create temp table seed_going on commit drop as
       select event_id, count(*)::int as going from seed_rsvp where status = 'going' group by event_id`,
      `create temp table seed_club_stats on commit drop as
       select c.id, coalesce(m.n, 0) as member_count, e.next_event_at
       from seed_club c
         left join (select club_id, count(*)::int as n from seed_active group by club_id) m on m.club_id = c.id
         left join (select club_id, min(starts_at) as next_event_at from seed_event
                    where status = 'scheduled' and starts_at > now() group by club_id) e on e.club_id = c.id`,
    ]);

    // ---- 2. drop what is faster to rebuild, insert, rebuild
    const indexes = await secondaryIndexes(db, TABLES);
    await step(
      'drop secondary indexes',
      indexes.map((i) => `drop index ${i.name}`),
    );

    await step(
      'insert clubs',
      `
      insert into club (id, name, description, category, city, online, visibility, join_question, rules, created_by,
                        member_count, next_event_at, created_at, updated_at)
      select c.id, c.name, c.description, c.category, c.city, c.online, c.visibility,
        case when c.visibility = 'approval' then 'What brings you to the club?' end,
        'Be kind. Answer going only if you mean it.', o.user_id, st.member_count, st.next_event_at, c.created_at, now()
      from seed_club c join seed_club_stats st on st.id = c.id
        join seed_membership o on o.club_id = c.id and o.k = 1
      order by c.n`,
    );
    // What the club trigger (drizzle/0021) does for each row, which replica mode skipped.
    await step(
      'club search words',
      `
      insert into club_search_word (word)
      select distinct w from seed_club, regexp_split_to_table(lower(name || ' ' || coalesce(city, '')), '[^[:alnum:]]+') as w
      where length(w) >= 3
      on conflict do nothing`,
    );
    // What the club triggers (drizzle/0032) do, which replica mode skipped: the postings of
    // club search (one row per lexeme of each new club) and the lexeme counts.
    await step(
      'club search postings',
      `
      insert into club_term (lexeme, club_id, tier, member_count, category, city, online, visibility, next_event_at)
      select l, c.id, case when l = any (tsvector_to_array(c.search_name)) then 1 else 2 end, c.member_count, c.category,
        lower(c.city), c.online, c.visibility, c.next_event_at
      from club c join seed_club s on s.id = c.id, unnest(tsvector_to_array(c.search)) as l
      order by 1, 2`,
    );
    await step(
      'club lexeme counts',
      `
      insert into club_lexeme as s (lexeme, n_all)
      select word, ndoc from ts_stat('select c.search from club c join seed_club s on s.id = c.id')
      order by word
      on conflict (lexeme) do update set n_all = s.n_all + excluded.n_all`,
    );
    await step(
      'insert memberships',
      `
      insert into club_membership (club_id, user_id, role, state, join_answer, created_at, updated_at)
      select club_id, user_id, role, state, case when state = 'pending' then 'I would love to join.' end, created_at, created_at
      from seed_membership order by club_n, k`,
    );
    await step(
      'insert events',
      `
      insert into club_event (id, club_id, title, description, starts_at, ends_at, time_zone, online_url, address, capacity,
                              status, going_count, created_by, created_at, updated_at)
      select e.id, e.club_id, e.title, 'Join us for our ' || lower(e.title) || '. Everyone welcome.', e.starts_at, e.starts_at + interval '2 hours',
        e.time_zone, case when e.online then 'https://meet.agora.test/' || substr(md5(e.id::text), 1, 10) end,
        case when not e.online then (1 + floor(random() * 200)::int) || ' ' || ${pick(textArray(['High Street', 'Market Square', 'Station Road', 'Park Lane']), 'random()')} || ', ' || e.city end,
        e.capacity, e.status, coalesce(g.going, 0), o.user_id, e.starts_at - interval '30 days', e.starts_at - interval '30 days'
      from seed_event e left join seed_going g on g.event_id = e.id
        join seed_membership o on o.club_id = e.club_id and o.k = 1
      order by e.club_n, e.starts_at`,
    );
    await step(
      'insert rsvps',
      `
      insert into club_rsvp (event_id, user_id, status, answered_at, queue_order)
      select event_id, user_id, status, answered_at, case when status = 'waitlisted' then nextval('club_rsvp_order_seq') end
      from (select * from seed_rsvp order by event_id, j) r`,
    );
    // The job that refreshes next_event_at when that event starts (clubs/attendance.ts).
    await step(
      'next-event jobs',
      `
      insert into job (kind, payload, run_at, key)
      select 'club.next-event', jsonb_build_object('clubId', id), next_event_at, 'club-next-event:' || id
      from seed_club_stats where next_event_at is not null
      on conflict do nothing`,
    );

    for (const i of indexes) await step(`index ${i.name}`, i.def);
    await db.query('commit');
  } catch (err) {
    await db.query('rollback').catch(() => {});
    throw err;
  }
  await step('vacuum analyze', `vacuum analyze "user", job, ${TABLES.join(', ')}`);
  // Club search reads its word frequencies from here (drizzle/0025): copied from the fresh statistics.
  await step('search statistics', `select refresh_club_search_stat()`);

  const [row] = (
    await db.query(`select
      (select count(*)::int from club) as clubs, (select count(*)::int from club_membership) as memberships,
      (select count(*)::int from club_event) as events, (select count(*)::int from club_rsvp) as rsvps`)
  ).rows;
  const totalSeconds = Number(((performance.now() - started) / 1000).toFixed(2));
  return { batch, counts: countsOf(row), timings, totalSeconds };
}

// ---------------------------------------------------------------- CLI (scripts/seed.ts runs it)

/** `tsx scripts/seed-clubs.ts --clubs N [--seed X]`: the database opened (and migrated) as the app does. */
export async function seedClubsCli(args: string[]) {
  const clubs = Number(argValue(args, '--clubs') ?? '1000');
  const seed = argValue(args, '--seed');
  if (!Number.isInteger(clubs) || clubs < 1) throw new Error('--clubs must be a whole number >= 1');
  const { runner, close, where } = await openSeedDatabase(clubs, 'clubs');
  console.log(`Seeding ${clubs} clubs into ${where}`);
  try {
    const r = await seedClubs(runner, { clubs, seed: seed ? Number(seed) : undefined, log: (line) => console.log(`  ${line}`) });
    console.log(`\nClubs done in ${r.totalSeconds.toFixed(1)} s (batch ${r.batch}). Totals in the database now:`);
    for (const [k, v] of Object.entries(r.counts)) console.log(`  ${k.padEnd(12)} ${v.toLocaleString('en')}`);
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  seedClubsCli(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
