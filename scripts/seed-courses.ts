/**
 * `npm run seed -- --courses 100000`: realistic course data at scale, set-based.
 *
 * Per 100k courses: ~2k educators, ~50k learners, ~300k sessions, ~1M class times,
 * ~1M enrolments, ~200k reviews, with the denormalized columns (seats_taken,
 * seats_left, next_start_on, rating_avg, rating_count) consistent. Every table is
 * filled by one INSERT ... SELECT over generate_series: no row goes through Node.
 *
 * Text comes from word lists so that search sees a realistic spread: generic words
 * ("beginners", "project", "practice") match 10-35% of courses, topic words
 * ("python", "sourdough") about 0.5-3%, and ~250 rare words (kintsugi, falconry,
 * ...) a handful each. Runs can be repeated: each call adds a new batch (emails are
 * tagged with the batch), so the bench seeds 10k, measures, then adds 90k.
 *
 * Options: --courses N (required), --seed X (0..1, deterministic text), --big-educator EMAIL
 * (that user gets 500 courses and 50k enrolments: scripts/seed-analytics.ts), DATABASE_URL
 * (PostgreSQL; PGlite only for at most 2000 courses, in DATA_DIR).
 */
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
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
  type Step,
} from './seed-kit.js';

export interface SeedOptions extends SeedRunOptions {
  courses: number;
}

export type { SeedResult };

// ---------------------------------------------------------------- vocabulary

export const FIRST_NAMES =
  `Ada Alan Grace Linus Margaret Edsger Barbara Donald Frances Ken Dennis Bjarne Guido Anders Yukihiro Sophie Hedy Katherine Dorothy Mary
Tim Vint Radia Shafi Leslie John Jean Marie Rosalind Lise Emmy Srinivasa Alice Bob Carol David Eve Frank Heidi Ivan Judy Mallory Oscar Peggy Trent Victor Walter
Amara Chidi Kwame Ngozi Aiko Haruto Yuna Mei Wei Jun Priya Arjun Ananya Rohan Fatima Omar Layla Yusuf Zainab Elif Mehmet Olga Dmitri Anya Pavel Ines Mateo
Lucia Diego Camila Santiago Sofia Liam Noah Emma Olivia Ava Isabella Mia Lucas Ethan Chloe Zoe Nora Leo Hugo Clara Oskar Freya Astrid Magnus Ingrid Nils`.split(
    /\s+/,
  );
export const LAST_NAMES =
  `Lovelace Turing Hopper Torvalds Hamilton Dijkstra Liskov Knuth Allen Thompson Ritchie Stroustrup Rossum Hejlsberg Matsumoto Wilson Lamarr
Johnson Vaughan Jackson Berners-Lee Cerf Perlman Goldwasser Lamport McCarthy Sammet Curie Franklin Meitner Noether Ramanujan Okafor Mensah Adeyemi Tanaka
Sato Suzuki Chen Wang Li Zhang Patel Sharma Gupta Khan Haddad Yilmaz Kaya Ivanova Petrov Sokolov Garcia Martinez Lopez Gonzalez Rodriguez Fernandez Silva
Santos Costa Rossi Bianchi Ferrari Muller Schmidt Schneider Fischer Weber Dubois Martin Bernard Moreau Laurent Jansen Visser Andersson Johansson Larsen
Nielsen Hansen Kowalski Nowak Novak Horvat Murphy Kelly Walsh Smith Jones Taylor Brown Davies Evans Thomas Roberts Campbell Stewart`.split(
    /\s+/,
  );

export const CITIES =
  `London Manchester Edinburgh Dublin Paris Lyon Berlin Munich Hamburg Amsterdam Rotterdam Brussels Madrid Barcelona Lisbon Porto Rome Milan Vienna
Zurich Copenhagen Stockholm Oslo Helsinki Warsaw Prague Budapest Athens Istanbul Toronto Montreal Vancouver Boston Chicago Seattle Austin Denver Portland`.split(
    /\s+/,
  );

/** Topic per category: category id, then topics (title case, used in titles and text). */
const TOPICS: [string, string[]][] = [
  [
    'arts',
    [
      'Watercolor Painting',
      'Oil Painting',
      'Figure Drawing',
      'Pottery',
      'Ceramics',
      'Printmaking',
      'Screen Printing',
      'Knitting',
      'Embroidery',
      'Woodworking',
      'Jewelry Making',
      'Photography',
      'Portrait Photography',
      'Digital Illustration',
      'Sketching',
    ],
  ],
  [
    'business',
    [
      'Project Management',
      'Product Management',
      'Digital Marketing',
      'Public Speaking',
      'Negotiation',
      'Bookkeeping',
      'Startup Finance',
      'Sales',
      'Leadership',
      'Personal Finance',
      'Investing',
      'Excel',
      'Copywriting for Business',
      'Agile Teams',
    ],
  ],
  [
    'coding',
    [
      'Python',
      'Python for Data Analysis',
      'JavaScript',
      'TypeScript',
      'React',
      'Web Development',
      'SQL',
      'Data Science',
      'Machine Learning',
      'Rust',
      'Go Programming',
      'Game Development',
      'iOS Development',
      'Android Development',
      'Cybersecurity',
      'Cloud Computing',
    ],
  ],
  [
    'cooking',
    [
      'Italian Cooking',
      'Sourdough Baking',
      'Bread Baking',
      'French Pastry',
      'Thai Cuisine',
      'Indian Curries',
      'Vegan Cooking',
      'Knife Skills',
      'Sushi Making',
      'Cake Decorating',
      'Mexican Street Food',
      'Fermentation',
      'Coffee Brewing',
      'Wine Tasting',
    ],
  ],
  [
    'languages',
    [
      'Spanish',
      'French',
      'German',
      'Italian',
      'Japanese',
      'Mandarin Chinese',
      'Korean',
      'Portuguese',
      'Arabic',
      'Russian',
      'English Conversation',
      'Sign Language',
      'Dutch',
      'Swedish',
    ],
  ],
  [
    'mathematics',
    [
      'Algebra',
      'Geometry',
      'Calculus',
      'Statistics',
      'Probability',
      'Linear Algebra',
      'Number Theory',
      'Math Olympiad Prep',
      'Mental Math',
      'Discrete Mathematics',
      'Trigonometry',
    ],
  ],
  [
    'music',
    [
      'Piano',
      'Guitar',
      'Ukulele',
      'Violin',
      'Drums',
      'Singing',
      'Music Theory',
      'Songwriting',
      'Music Production',
      'Jazz Improvisation',
      'Choir',
      'Cello',
      'DJing',
    ],
  ],
  [
    'science',
    [
      'Astronomy',
      'Chemistry',
      'Physics',
      'Biology',
      'Robotics',
      'Electronics',
      'Neuroscience',
      'Climate Science',
      'Marine Biology',
      'Genetics',
      'Geology',
      'Botany',
    ],
  ],
  [
    'sports',
    [
      'Yoga',
      'Pilates',
      'Running',
      'Strength Training',
      'Swimming',
      'Tennis',
      'Rock Climbing',
      'Boxing',
      'Cycling',
      'Martial Arts',
      'Dance Fitness',
      'Chess',
    ],
  ],
  [
    'wellbeing',
    [
      'Mindfulness',
      'Meditation',
      'Stress Management',
      'Sleep Better',
      'Nutrition',
      'Breathwork',
      'Journaling',
      'Life Coaching',
      'Parenting',
      'Habit Building',
    ],
  ],
  [
    'writing',
    [
      'Creative Writing',
      'Fiction Writing',
      'Poetry',
      'Screenwriting',
      'Memoir Writing',
      'Technical Writing',
      'Copywriting',
      'Blogging',
      'Editing',
      'Storytelling',
    ],
  ],
  [
    'other',
    [
      'Gardening',
      'Home Repair',
      'Interior Design',
      'Sewing',
      'Dog Training',
      'Genealogy',
      'Travel Planning',
      'Urban Sketching',
      'Board Game Design',
      'Magic Tricks',
    ],
  ],
];

const TITLE_TEMPLATES = [
  'Introduction to %s',
  '%s for Beginners',
  'Hands-on %s',
  '%s Masterclass',
  'Weekend %s Workshop',
  '%s: From Zero to Confident',
  'Practical %s',
  '%s for Kids',
  'Advanced %s',
  '%s Bootcamp',
  'The Art of %s',
  '%s in Eight Weeks',
  'Live %s Sessions',
  '%s Fundamentals',
  '%s for Busy Professionals',
  '%s Study Group',
  'Intermediate %s',
  '%s for Teens',
  'Creative %s',
  '%s Essentials',
  'Modern %s',
  '%s Lab',
  'Everyday %s',
  '%s Deep Dive',
  '%s for Adults',
  'Summer %s Camp',
  'Evening %s Club',
  '%s Crash Course',
];

const SUMMARY_TEMPLATES = [
  'Learn %s step by step in a small, friendly group with live feedback every week.',
  'A practical course in %s: short lessons, real projects and plenty of practice.',
  'Build confidence in %s with an experienced teacher and a supportive cohort.',
  'Everything you need to get started with %s, explained clearly and patiently.',
  'Take your %s skills further with challenging exercises and personal guidance.',
  'Weekly live classes in %s for curious learners who like to learn by doing.',
  'An intensive program in %s with homework, reviews and a final showcase.',
  'Discover %s through guided practice, discussion and small creative projects.',
  'A relaxed introduction to %s for complete beginners, no experience needed.',
  'Master the essentials of %s and leave with a portfolio of finished work.',
];

/** Generic sentences: each course takes 4-7, so each word lands in roughly 8-35% of courses. */
const GENERIC_SENTENCES = [
  'Classes are small so that everyone gets individual attention.',
  'Every session mixes a short demonstration with plenty of hands-on practice.',
  'You will finish the course with a real project you can be proud of.',
  'Beginners are very welcome and advanced learners will find new challenges.',
  'We use free tools, so you only need a laptop and an internet connection.',
  'Recordings of each class are available for a week in case you miss one.',
  'Homework is optional but strongly recommended to make steady progress.',
  'The teacher answers questions between classes in a private discussion group.',
  'Each week builds on the last, so attending every session helps a lot.',
  'Expect friendly feedback, clear explanations and a good dose of humour.',
  'Learners of all ages and backgrounds have enjoyed this course.',
  'Materials and worksheets are shared after every class.',
  'We finish with a showcase where everyone presents their work to the group.',
  'No previous experience is required, only curiosity and a willingness to practise.',
  'Sessions are interactive: bring your questions and your own examples.',
  'The pace is gentle at first and picks up as your confidence grows.',
  'Certificates of completion are available for learners who attend most classes.',
  'Pair exercises help you learn from other participants as well as the teacher.',
  'Short quizzes at the end of each class help you remember what matters.',
  'Previous cohorts describe the atmosphere as warm, focused and fun.',
  'You will get personal feedback on your work at least twice during the course.',
  'We keep theory short and spend most of the time on practical exercises.',
  'A reading list and extra resources are provided for those who want more.',
  'The course suits parents, students, professionals and retirees alike.',
  'Guest speakers join for one session to share their experience.',
  'By the end you will know how to keep learning on your own.',
];

const CATEGORY_SENTENCES: Record<string, string[]> = {
  arts: [
    'We explore colour, composition and texture through guided studies.',
    'Bring a sketchbook: we start every class with a quick warm-up drawing.',
    'Studio materials such as clay, paper and paint are included.',
  ],
  business: [
    'Case studies from real companies show how the ideas work in practice.',
    'You will build a simple plan, budget and pitch for your own idea.',
    'Templates for spreadsheets and presentations are included.',
  ],
  coding: [
    'We write code from the very first class and build a small application together.',
    'You will learn to debug, test and deploy your programs.',
    'Projects use version control so you practise a real developer workflow.',
  ],
  cooking: [
    'Every class ends with a meal you cooked yourself.',
    'Ingredient lists are sent a few days before each session.',
    'We cover knife work, seasoning, timing and plating.',
  ],
  languages: [
    'Conversation practice in small breakout groups starts in week one.',
    'Grammar is introduced through real dialogues rather than drills.',
    'You will practise pronunciation, listening and everyday vocabulary.',
  ],
  mathematics: [
    'Problems are chosen to build intuition before formulas.',
    'Worked examples and practice sets accompany every topic.',
    'We connect each idea to puzzles and real-world problems.',
  ],
  music: [
    'Each week you learn a new piece and the technique behind it.',
    'Ear training and rhythm exercises are part of every lesson.',
    'We finish with an informal concert for friends and family.',
  ],
  science: [
    'Simple experiments you can do at home make the ideas concrete.',
    'We read and discuss recent discoveries in accessible articles.',
    'Lab sessions use safe, inexpensive materials.',
  ],
  sports: [
    'Warm-up, technique and cool-down are part of every session.',
    'Exercises are adapted to your fitness level and goals.',
    'We track progress with simple weekly challenges.',
  ],
  wellbeing: [
    'Short guided exercises help you build a daily routine.',
    'We discuss the science behind each practice in plain language.',
    'A calm, confidential space where you can go at your own pace.',
  ],
  writing: [
    'Weekly prompts get you writing from the first class.',
    'Workshops give you kind, specific feedback on your drafts.',
    'We read short examples from published authors and discuss their craft.',
  ],
  other: [
    'Practical tips you can use at home straight away.',
    'Bring photos or examples from your own projects to discuss.',
    'We share a checklist and resource pack at the end.',
  ],
};

/** Rare words: one sentence with one of these in ~12% of courses, so each lands in a handful. */
export const RARE_WORDS =
  `kintsugi sashiko shibori marquetry bookbinding letterpress calligraphy origami macrame tatting lacemaking falconry beekeeping foraging mycology
lichens bryophytes cartography orienteering astrolabes sundials glassblowing blacksmithing woodturning whittling perfumery kombucha kimchi tempeh miso koji
charcuterie haskell erlang elixir ocaml prolog fortran cobol clojure scheme smalltalk lisp assembly verilog vhdl webassembly kubernetes terraform ansible
arduino raspberry soldering theremin harpsichord bagpipes didgeridoo sitar tabla kalimba mandolin banjo accordion oboe bassoon harp lute zither marimba
glockenspiel carillon calculus-free topology tessellations fractals knots cryptography ciphers enigma semaphore morse esperanto latin sanskrit gaelic welsh
basque icelandic finnish hungarian estonian swahili yoruba zulu amharic tagalog quechua navajo hawaiian maori tibetan mongolian georgian armenian
fencing archery curling lacrosse kabaddi sepaktakraw hurling bouldering parkour slackline unicycling juggling diabolo kendama yoyo skateboarding
surfing kitesurfing paddleboarding kayaking canoeing sailing rowing snorkeling freediving spelunking caving birdwatching stargazing meteorology
volcanology seismology paleontology entomology herpetology ornithology mycorrhiza permaculture hydroponics aquaponics composting vermiculture
bonsai ikebana topiary terrariums succulents orchids cacti ferns mosses lichenology dendrology arboriculture viticulture enology distilling brewing
mead cider sake matcha chai espresso latte barista patisserie chocolatier confectionery marzipan nougat toffee fudge meringue souffle croissant
brioche focaccia ciabatta pretzel bagel tortilla dumplings ramen pho bibimbap paella risotto gnocchi ravioli tagine biryani injera ceviche
quilting crochet weaving spinning dyeing felting tapestry mosaics stained-glass enamelling engraving etching lithography woodcut linocut
gouache pastels charcoal encaustic fresco trompe-loeil anamorphic zentangle mandalas henna tattoo typography lettering signwriting
podcasting vlogging livestreaming voiceover audiobooks radio puppetry ventriloquism mime clowning improv standup storyboarding animation claymation
stopmotion rotoscoping cinematography screenprinting risograph zines chapbooks haiku sonnets limericks villanelles ghazals epigrams aphorisms`.split(
    /\s+/,
  );

const REVIEW_TEXTS = [
  'Clear explanations and a lovely group. I learned a lot.',
  'Great teacher, very patient. The projects were the best part.',
  'Good course overall; the pace was a little fast in the middle.',
  'Exactly what I needed to get started. Highly recommended.',
  'Fun, friendly and well organised. I would take another course with this educator.',
  'The materials were excellent and the feedback was really useful.',
  'Some sessions felt rushed, but I still made good progress.',
  'I wish it were longer! Every class was worth it.',
  'Not quite what I expected, but the teacher was kind and helpful.',
  'Brilliant. My confidence has grown enormously.',
  '',
];

const EDUCATOR_HEADLINES = [
  'Teacher, maker and lifelong learner',
  'Helping beginners feel at home',
  'Practical skills for busy people',
  'Ten years of teaching small groups',
  'Professional by day, teacher by night',
  'Making hard things simple',
  'Patient teacher for all ages',
  'Learning should be fun',
];

/**
 * `count` new users (verified, no password; names and cities from the lists above) in one
 * step, numbered 1..count in the temporary table `into` (n, id, name); their emails are
 * `<tag>-<batch>-<n>@agora.test`.
 */
export async function seedUsers(
  db: SqlRunner,
  step: Step,
  name: string,
  { into, tag, count, batch }: { into: string; tag: string; count: number; batch: string },
) {
  await db.query(`create temp table ${into} (n int primary key, id uuid not null, name text not null) on commit drop`);
  await step(
    name,
    `
    with g as (
      select i, ${pick(textArray(FIRST_NAMES), 'random()')} as first, ${pick(textArray(LAST_NAMES), 'random()')} as last, ${pick(textArray(CITIES), 'random()')} as city
      from generate_series(1, $1::int) i
    ), ins as (
      insert into "user" (email, name, first_name, last_name, city, verified, created_at, updated_at)
      select '${tag}-' || $2 || '-' || i || '@agora.test', first || ' ' || last, first, last, city, true,
             now() - (random() * interval '700 days'), now()
      from g order by i
      returning id, email, name
    )
    insert into ${into} (n, id, name)
    select split_part(split_part(email, '@', 1), '-', ${tag.split('-').length + 2})::int, id, name from ins`,
    [count, batch],
  );
}

// ---------------------------------------------------------------- the seed

/** Tables the seed fills; their plain secondary indexes are rebuilt rather than maintained row by row. */
const TABLES = ['course', 'course_session', 'class_time', 'enrolment', 'review', 'search_word', 'course_term', 'course_card'];

/**
 * Adds one batch of courses (with their educators, learners, sessions, class times,
 * enrolments and reviews), in one transaction:
 *
 *   1. every row is first generated into temporary tables (no WAL, no indexes), so the
 *      denormalized columns (seats_taken, seats_left, next_start_on, rating_avg/count)
 *      are computed before the real rows are written, and no real row is ever updated;
 *   2. the plain secondary indexes and the class-time exclusion constraint of the five
 *      tables are dropped, each table gets one INSERT ... SELECT, and they are built again
 *      from their own definitions (pg_get_indexdef): building a GIN or GiST index once is
 *      several times faster than a million single inserts into it. Primary keys and unique
 *      indexes stay (the foreign keys need them);
 *   3. VACUUM ANALYZE, so the planner sees the new sizes and the visibility map is set.
 *
 * The tables are locked while it runs (the index drop takes an exclusive lock).
 */
export async function seedCourses(db: SqlRunner, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const n = Math.floor(opts.courses);
  if (!(n >= 1)) throw new Error('--courses must be at least 1');
  const educators = Math.max(2, Math.round(n / 50));
  const learners = Math.max(10, Math.round(n / 2));
  const batch = randomBytes(4).toString('hex');
  const seed = opts.seed ?? 0.42;
  const started = performance.now();
  const { step, timings } = timedSteps(db, log);

  // The rows are consistent by construction (every reference comes from a join on rows
  // just generated); in replica mode triggers are skipped too, so writeRows does their
  // work and the change notice is sent explicitly at the end.
  const replica = await beginBulkLoad(db, seed);
  try {
    await generateRows(db, step, { n, educators, learners, batch });
    await writeRows(db, step, replica);

    // Search result caches listen on this channel (courses/search-cache.ts); the trigger
    // that sends it did not fire in replica mode.
    await db.query(`select pg_notify('course_changed', 'seed')`);
    await db.query('commit');
  } catch (err) {
    await db.query('rollback').catch(() => {});
    throw err;
  }
  await step('vacuum analyze', `vacuum analyze "user", educator, search_lexeme, ${TABLES.join(', ')}`);

  const [row] = (
    await db.query(`select
      (select count(*)::int from "user") as users, (select count(*)::int from educator) as educators,
      (select count(*)::int from course) as courses, (select count(*)::int from course where status = 'published') as published,
      (select count(*)::int from course_session) as sessions, (select count(*)::int from class_time) as class_times,
      (select count(*)::int from enrolment) as enrolments, (select count(*)::int from review) as reviews`)
  ).rows;
  const totalSeconds = Number(((performance.now() - started) / 1000).toFixed(2));
  return { batch, counts: countsOf(row), timings, totalSeconds };
}

/**
 * 1. Every row generated into temporary tables (no WAL, no indexes), the denormalized
 * columns computed there: users, educators, courses, sessions, enrolments, reviews.
 */
async function generateRows(
  db: SqlRunner,
  step: Step,
  { n, educators, learners, batch }: { n: number; educators: number; learners: number; batch: string },
) {
  const topics = TOPICS.flatMap(([, list]) => list);
  const topicCategory = TOPICS.flatMap(([cat, list]) => list.map(() => cat));
  // Three sentences per category, flattened in the order of TOPICS.
  const CATSENT = textArray(TOPICS.flatMap(([cat]) => CATEGORY_SENTENCES[cat].slice(0, 3)));
  const CATS = textArray(TOPICS.map(([cat]) => cat));
  const T = textArray(topics);
  const TC = textArray(topicCategory);
  const CITY = textArray(CITIES);
  const GEN = textArray(GENERIC_SENTENCES);
  const RARE = textArray(RARE_WORDS);

  // Users: educators first (1..E), then learners (E+1..E+L).
  await seedUsers(db, step, 'users', { into: 'seed_user', tag: 'seed', count: educators + learners, batch });

  await step(
    'educators',
    `
    insert into educator (user_id, bio, headline, subjects, links)
    select id,
      'I have taught ' || (3 + n % 20) || ' years and love helping people discover something new. My classes are practical, friendly and well prepared.',
      ${pick(textArray(EDUCATOR_HEADLINES), 'random()')},
      jsonb_build_array(${pick(T, 'random()')}),
      '[]'::jsonb
    from seed_user where n <= $1`,
    [educators],
  );

  // Courses: a topic (hence a category), a title template, summary, a Markdown description.
  await step(
    'generate courses',
    `
    create temp table seed_course on commit drop as
    with g as (
      select i,
        1 + floor(random() * ${topics.length})::int as t,
        1 + floor(random() * $2::int)::int as edu,
        random() as r_status, random() as r_format, random() as r_price, random() as r_rare, random() as r_inst
      from generate_series(1, $1::int) i
    ), c as (
      select g.*, (${T})[t] as topic, (${TC})[t] as category, array_position(${CATS}, (${TC})[t]) as cat_pos,
        u.id as educator_id, u.name as educator_name, gen_random_uuid() as id,
        case when r_status < 0.95 then 'published' when r_status < 0.99 then 'draft' else 'archived' end as status,
        case when r_format < 0.7 then 'online' else 'in_person' end as format,
        case when r_price < 0.18 then 0 else (10 + floor(random() * 60)::int * 5) * 100 end as price
      from g join seed_user u on u.n = g.edu
    )
    select i as n, id, educator_id, educator_name,
      format(${pick(textArray(TITLE_TEMPLATES), 'random()')}, topic) as title,
      format(${pick(textArray(SUMMARY_TEMPLATES), 'random()')}, lower(topic)) as summary,
      '## About this course' || E'\n\n' || 'This course is an introduction to ' || lower(topic) || ' taught live by ' || educator_name || '. '
        || array_to_string(array(select ${pick(GEN, 'random()')} from generate_series(1, 4 + (i + floor(random() * 4)::int) % 4) where i > 0), ' ')
        || E'\n\n## What you will learn\n\n'
        || array_to_string(array(select '- ' || s from unnest((${CATSENT})[(cat_pos - 1) * 3 + 1:(cat_pos - 1) * 3 + 3]) s where random() < 0.75 or s is null), E'\n')
        || case when r_rare < 0.12 then E'\n\nWe also spend a session on ' || ${pick(RARE, 'random()')} || '.' else '' end as description,
      category,
      (array['all','beginner','intermediate','advanced'])[1 + floor(random() * 4)::int] as level,
      case when random() < 0.85 then 'English' else ${pick(textArray(['Spanish', 'French', 'German', 'Portuguese', 'Italian']), 'random()')} end as language,
      case when random() < 0.2 then 'Ages 8-12' when random() < 0.1 then 'Teens 13-17' else null end as audience,
      format,
      case when format = 'in_person' then ${pick(CITY, 'random()')} else null end as city,
      case when format = 'in_person' then (1 + floor(random() * 200)::int) || ' ' || ${pick(textArray(['High Street', 'Market Square', 'Station Road', 'Park Lane', 'Church Street', 'Mill Road']), 'random()')} else null end as address,
      price, ${pick(textArray(['usd', 'usd', 'usd', 'eur', 'gbp']), 'random()')} as currency,
      case when price >= 20000 and r_inst < 0.3 then 3 else null end as installments,
      ${pick(textArray(['flexible', 'moderate', 'strict']), 'random()')} as refund_policy,
      status, now() - (random() * interval '600 days') as created_at,
      case when status <> 'draft' then now() - (random() * interval '500 days') else null end as published_at
    from c`,
    [n, educators],
  );

  // Sessions: 1-5 per course (3 on average), from 6 months ago to 8 months ahead, 1-6 weekly meetings.
  await step(
    'generate sessions',
    `
    create temp table seed_session on commit drop as
    with g as (
      select c.n as course_n, c.id as course_id, k,
        (current_date + (floor(random() * 420)::int - 180)) as starts_on,
        1 + floor(random() * 6)::int as weeks,
        case when random() < 0.25 then 4 + floor(random() * 6)::int else 10 + floor(random() * 21)::int end as capacity,
        random() as r_cancel,
        ${pick(textArray(['Europe/London', 'Europe/Paris', 'Europe/Berlin', 'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'America/Toronto']), 'random()')} as tz,
        8 + floor(random() * 12)::int as hour
      from seed_course c, generate_series(1, 5) k
      where k <= 1 + floor(random() * 5)::int + 0 * c.n
    )
    select row_number() over ()::int as n, gen_random_uuid() as id, course_id, course_n, starts_on, starts_on + (weeks - 1) * 7 as ends_on,
      weeks, capacity, tz, hour,
      case when starts_on + (weeks - 1) * 7 < current_date then 'completed' when r_cancel < 0.04 then 'cancelled' else 'scheduled' end as status
    from g`,
  );

  // Enrolments: 0-6 learners per session (half of the small sessions full), distinct per
  // session by construction: learner = (a + k * p) mod L with p prime and coprime to L.
  await step(
    'generate enrolments',
    `
    create temp table seed_enrolment on commit drop as
    with e as (
      select s.id as session_id, s.course_id, s.status as session_status, s.starts_on, k,
        1 + ((s.n::bigint * 7919 + k * 104729) % $1::int)::int as learner_n
      from seed_session s,
        lateral generate_series(1, least($1::int, case when s.capacity < 10 and random() < 0.5 then s.capacity else least(s.capacity, floor(random() * 7)::int) end)) k
    )
    select e.session_id, e.course_id, u.id as learner_id,
      case when e.session_status = 'cancelled' then 'dropped'
           when random() < 0.05 then 'dropped'
           when e.session_status = 'completed' then 'completed'
           else 'active' end as status,
      e.starts_on - (1 + floor(random() * 60)::int) * interval '1 day' as created_at
    from e join seed_user u on u.n = $2::int + e.learner_n`,
    [learners, educators],
  );

  // Reviews: about one in two learners of a finished session (one per learner per course).
  await step(
    'generate reviews',
    `
    create temp table seed_review on commit drop as
    select distinct on (course_id, learner_id) course_id, learner_id,
      case when r < 0.45 then 5 when r < 0.78 then 4 when r < 0.9 then 3 when r < 0.96 then 2 else 1 end as rating,
      ${pick(textArray(REVIEW_TEXTS), 'random()')} as text, now() - (random() * interval '150 days') as created_at
    from (select *, random() as r from seed_enrolment where status = 'completed') e
    where random() < 0.53
    order by course_id, learner_id`,
  );

  // The denormalized columns, exactly as the app keeps them (courses/stats.ts).
  await step('denormalized columns', [
    `
    create temp table seed_taken on commit drop as
    select session_id, count(*)::int as taken from seed_enrolment where status in ('active', 'pending_payment') group by session_id`,
    `
    create temp table seed_course_stats on commit drop as
    select c.id,
      x.next_start_on, coalesce(x.seats_left, 0) as seats_left, coalesce(r.avg, 0) as rating_avg, coalesce(r.n, 0) as rating_count
    from seed_course c
    left join (select s.course_id,
                 min(s.starts_on) filter (where s.status = 'scheduled' and s.starts_on >= current_date) as next_start_on,
                 sum(s.capacity - coalesce(t.taken, 0)) filter (where s.status = 'scheduled' and s.ends_on >= current_date)::int as seats_left
               from seed_session s left join seed_taken t on t.session_id = s.id group by s.course_id) x on x.course_id = c.id
    left join (select course_id, avg(rating)::real as avg, count(*)::int as n from seed_review group by course_id) r on r.course_id = c.id`,
  ]);
}

/**
 * 2. The plain secondary indexes and the class-time exclusion constraint dropped, each
 * table filled by one INSERT ... SELECT from the temporary tables (with what the triggers
 * would have done, in replica mode), then the indexes and constraints built again.
 */
async function writeRows(db: SqlRunner, step: Step, replica: boolean) {
  const indexes = await secondaryIndexes(db, TABLES);
  const constraints = (
    await db.query(
      `
    select c.conname as name, c.conrelid::regclass::text as tbl, pg_get_constraintdef(c.oid) as def
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where t.relname = any($1) and t.relnamespace = 'public'::regnamespace and c.contype = 'x'`,
      [TABLES],
    )
  ).rows as { name: string; tbl: string; def: string }[];
  await step('drop secondary indexes', [
    ...indexes.map((i) => `drop index ${i.name}`),
    ...constraints.map((c) => `alter table ${c.tbl} drop constraint ${c.name}`),
  ]);

  await step(
    'insert courses',
    `
    insert into course (id, educator_id, educator_name, title, summary, description, category, level, language, audience, format, city, address,
                        price_cents, currency, installments, refund_policy, status, rating_avg, rating_count, next_start_on, seats_left,
                        created_at, updated_at, published_at)
    select c.id, educator_id, educator_name, title, summary, description, category, level, language, audience, format, city, address,
      price, currency, installments, refund_policy, status, st.rating_avg, st.rating_count, st.next_start_on, st.seats_left,
      created_at, now(), published_at
    from seed_course c join seed_course_stats st on st.id = c.id
    order by c.n`,
  );

  // What the course trigger (drizzle/0006) does for each row, which replica mode skipped.
  await step(
    'search words',
    `
    insert into search_word (word)
    select distinct w from seed_course, regexp_split_to_table(lower(title || ' ' || educator_name), '[^[:alnum:]]+') as w
    where length(w) >= 3
    on conflict do nothing`,
  );

  // What the search postings trigger (drizzle/0027) does for each row, skipped in replica mode
  // (otherwise the trigger did it): the postings of the new courses' title words, and
  // their word counts added to search_lexeme (ts_stat: one pass over the new vectors).
  if (replica) {
    await step(
      'search postings',
      `
      insert into course_term (lexeme, course_id, unbookable, quality, category, level, format, city, price_cents, next_start_on, seats_left)
      select l, c.id, c.next_start_on is null, c.quality, c.category, c.level, c.format, lower(c.city), c.price_cents, c.next_start_on, c.seats_left
      from course c join seed_course s on s.id = c.id, unnest(tsvector_to_array(c.search_title)) as l
      where c.status = 'published'`,
    );
    await step(
      'course cards',
      `
      insert into course_card (course_id, card)
      select c.id, course_card(c) from course c join seed_course s on s.id = c.id
      where c.status = 'published'`,
    );
    await step(
      'search lexeme counts',
      `
      insert into search_lexeme as s (lexeme, n_all, n_title)
      select a.word, a.ndoc, coalesce(t.ndoc, 0)
      from ts_stat($q$select c.search from course c join seed_course s on s.id = c.id where c.status = 'published'$q$) a
      left join ts_stat($q$select c.search_title from course c join seed_course s on s.id = c.id where c.status = 'published'$q$) t on t.word = a.word
      order by a.word
      on conflict (lexeme) do update set n_all = s.n_all + excluded.n_all, n_title = s.n_title + excluded.n_title`,
    );
  }

  await step(
    'insert sessions',
    `
    insert into course_session (id, course_id, starts_on, ends_on, capacity, min_to_run, time_zone, status, seats_taken, created_at)
    select s.id, course_id, starts_on, ends_on, capacity, least(3, capacity), tz, status, coalesce(t.taken, 0), now() - interval '30 days'
    from seed_session s left join seed_taken t on t.session_id = s.id
    order by s.n`,
  );

  // Class times: one per week of the session, at the same local hour (never overlapping).
  await step(
    'insert class times',
    `
    insert into class_time (session_id, starts_at, ends_at, location, meeting_url)
    select s.id,
      ((s.starts_on + (w - 1) * 7)::timestamp + make_interval(hours => s.hour)) at time zone s.tz,
      ((s.starts_on + (w - 1) * 7)::timestamp + make_interval(hours => s.hour, mins => 90)) at time zone s.tz,
      null, 'https://meet.agora.test/' || substr(md5(s.id::text), 1, 10)
    from seed_session s, generate_series(1, 6) w
    where w <= s.weeks
    order by s.n, w`,
  );

  await step(
    'insert enrolments',
    `
    insert into enrolment (session_id, course_id, learner_id, status, created_at, updated_at, dropped_at)
    select session_id, course_id, learner_id, status, created_at, now(), case when status = 'dropped' then created_at + interval '3 days' end
    from seed_enrolment`,
  );

  await step(
    'insert reviews',
    `
    insert into review (course_id, learner_id, rating, text, created_at, updated_at)
    select course_id, learner_id, rating, text, created_at, created_at from seed_review`,
  );

  for (const i of indexes) await step(`index ${i.name}`, i.def);
  for (const c of constraints) await step(`constraint ${c.name}`, `alter table ${c.tbl} add constraint ${c.name} ${c.def}`);
}

// ---------------------------------------------------------------- CLI

async function main() {
  const args = process.argv.slice(2);
  const courses = Number(argValue(args, '--courses') ?? '1000');
  const seed = argValue(args, '--seed');
  if (!Number.isInteger(courses) || courses < 1) throw new Error('--courses must be a whole number >= 1');
  const log = (line: string) => console.log(`  ${line}`);
  // Migrations first, through the app's own opener (PostgreSQL, or PGlite for small counts).
  const { runner, close, where } = await openSeedDatabase(courses, 'courses');
  console.log(`Seeding ${courses} courses into ${where}`);
  try {
    const result = await seedCourses(runner, { courses, seed: seed ? Number(seed) : undefined, log });
    // One educator with a large catalogue for the analytics bench (scripts/seed-analytics.ts).
    const big = argValue(args, '--big-educator');
    if (big) await (await import('./seed-analytics.js')).seedBigEducator(runner, { email: big, log });
    console.log(`\nDone in ${result.totalSeconds.toFixed(1)} s (batch ${result.batch}). Totals in the database now:`);
    for (const [k, v] of Object.entries(result.counts)) console.log(`  ${k.padEnd(12)} ${v.toLocaleString('en')}`);
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
