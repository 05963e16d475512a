import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
  real,
} from 'drizzle-orm/pg-core';
import { educator, learnerProfile, user } from './accounts.js';
import { ts } from './columns.js';

/**
 * Courses: a course runs in sessions; a session meets at class times; learners hold
 * enrolments in sessions and write one review per course.
 */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const course = pgTable(
  'course',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    educatorId: uuid('educator_id')
      .notNull()
      .references(() => educator.userId, { onDelete: 'cascade' }),
    /** The educator's display name, copied so search can rank on it without a join. */
    educatorName: text('educator_name').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    level: text('level').notNull(),
    language: text('language').notNull(),
    audience: text('audience'),
    format: text('format').notNull(),
    city: text('city'),
    address: text('address'),
    coverImage: text('cover_image'),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    /** Null: one payment only; N (2-24): N monthly installments offered as well. */
    installments: smallint('installments'),
    refundPolicy: text('refund_policy').notNull(),
    /** How long a freed seat of a paid session is held for the first on its waitlist (an offer), in minutes. */
    waitlistHoldMinutes: integer('waitlist_hold_minutes').notNull().default(1440),
    /** The ages the course is for (family accounts, ADR 0074): enrolment checks them per learner; null: no bound. */
    minAge: smallint('min_age'),
    maxAge: smallint('max_age'),
    status: text('status').notNull().default('draft'),
    ratingAvg: real('rating_avg').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    /** The earliest start of a scheduled session still to come (kept by the app). */
    nextStartOn: date('next_start_on', { mode: 'string' }),
    /** Seats left over all scheduled sessions (kept by the app). */
    seatsLeft: integer('seats_left').notNull().default(0),
    stripeProductId: text('stripe_product_id'),
    search: tsvector('search').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(educator_name, '')), 'A') || setweight(to_tsvector('english', coalesce(summary, '')), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')`,
    ),
    /** Title and educator name only: the narrow first pass of relevance search (courses/search-sql.ts). */
    searchTitle: tsvector('search_title').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(educator_name, '')), 'A')`,
    ),
    /** Bayesian average rating (prior: 5 reviews of 4 stars): relevance tie-break and "popular". */
    quality: real('quality').generatedAlwaysAs((): SQL => sql`(rating_avg * rating_count + 20) / (rating_count + 5)`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    publishedAt: ts('published_at'),
  },
  (t) => [
    index('course_educator_idx').on(t.educatorId),
    // The educator's rating on the course page, index-only (migration 0027 INCLUDEs
    // rating_avg and rating_count; Drizzle cannot declare INCLUDE).
    index('course_educator_rating_idx')
      .on(t.educatorId)
      .where(sql`status = 'published'`),
    // Search (docs/decisions/0005-course-search.md): every index is partial on what is searchable.
    index('course_search_title_idx')
      .using('gin', t.searchTitle)
      .where(sql`status = 'published'`),
    // Relevance within a tier, and "popular": courses one can still enrol in first, then by quality.
    // Migration 0009 adds INCLUDE (search_title and every filter column; Drizzle cannot
    // declare INCLUDE), so a tier-1 walk is index-only: docs/decisions/0005-course-search.md.
    index('course_relevance_idx')
      .on(sql`(next_start_on is null)`, t.quality.desc(), t.id)
      .where(sql`status = 'published'`),
    index('course_rating_idx')
      .on(t.ratingAvg.desc(), t.ratingCount.desc(), t.id)
      .where(sql`status = 'published'`),
    index('course_price_idx')
      .on(t.priceCents, t.id)
      .where(sql`status = 'published'`),
    index('course_city_idx')
      .on(sql`lower(city)`, t.nextStartOn)
      .where(sql`status = 'published'`),
    index('course_search_idx')
      .using('gin', t.search)
      .where(sql`status = 'published'`),
    index('course_title_trgm_idx')
      .using('gin', sql`title gin_trgm_ops`)
      .where(sql`status = 'published'`),
    index('course_published_next_idx')
      .on(t.nextStartOn)
      .where(sql`status = 'published'`),
    check('course_price_nonnegative', sql`${t.priceCents} >= 0`),
    check('course_installments_range', sql`${t.installments} is null or ${t.installments} between 2 and 24`),
    check('course_waitlist_hold_range', sql`${t.waitlistHoldMinutes} between 1 and 10080`),
    check('course_status_valid', sql`${t.status} in ('draft', 'published', 'archived')`),
    check(
      'course_ages_valid',
      sql`(${t.minAge} is null or ${t.minAge} between 0 and 120) and (${t.maxAge} is null or ${t.maxAge} between coalesce(${t.minAge}, 0) and 120)`,
    ),
  ],
);

export const courseSession = pgTable(
  'course_session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    capacity: integer('capacity').notNull(),
    minToRun: integer('min_to_run').notNull().default(1),
    timeZone: text('time_zone').notNull(),
    /** scheduled | cancelled | completed ("full" and "running" are derived). */
    status: text('status').notNull().default('scheduled'),
    /** Active (and pending-payment) enrolments; the guard against over-booking. */
    seatsTaken: integer('seats_taken').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('course_session_course_idx').on(t.courseId, t.startsOn),
    check('course_session_dates', sql`${t.endsOn} >= ${t.startsOn}`),
    check('course_session_capacity', sql`${t.capacity} >= 1 and ${t.seatsTaken} between 0 and ${t.capacity}`),
    check('course_session_min', sql`${t.minToRun} >= 1 and ${t.minToRun} <= ${t.capacity}`),
  ],
);

export const classTime = pgTable(
  'class_time',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    location: text('location'),
    meetingUrl: text('meeting_url'),
    /** The calendar invitation's SEQUENCE (RFC 5545): raised each time the class time moves (ADR 0068). */
    sequence: integer('sequence').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('class_time_session_idx').on(t.sessionId, t.startsAt), check('class_time_order', sql`${t.endsAt} > ${t.startsAt}`)],
);

/**
 * A class reminder sent (ADR 0068): one row per class time, person, offset ('24h', '1h') and
 * start, written in the transaction that announces it, so a reminder job delivered twice (or
 * run twice at once) reminds once, and a class that moved (a new start) is reminded anew.
 */
export const classReminderSent = pgTable(
  'class_reminder_sent',
  {
    classTimeId: uuid('class_time_id')
      .notNull()
      .references(() => classTime.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    before: text('before').notNull(),
    startsAt: ts('starts_at').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'class_reminder_sent_pk', columns: [t.classTimeId, t.userId, t.before, t.startsAt] }),
    index('class_reminder_sent_user_idx').on(t.userId),
  ],
);

export const enrolment = pgTable(
  'enrolment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    /** The account holding the seat: the learner, or the account holder of `learnerProfileId`. */
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * Family accounts (ADR 0074): the account's learner profile this seat is for; null: the
     * account holder. No cascade: a profile with enrolments is not deleted by accident (its
     * removal hides it instead; the account's erasure keeps it under a pseudonym).
     */
    learnerProfileId: uuid('learner_profile_id').references(() => learnerProfile.id, { onDelete: 'no action' }),
    /** active | waitlisted | offered | dropped | completed | pending_payment | past_due */
    status: text('status').notNull(),
    /** An offered seat (a paid session's waitlist): held for the learner until then. */
    offerExpiresAt: ts('offer_expires_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    droppedAt: ts('dropped_at'),
  },
  (t) => [
    // One live seat per person: the account holder (no profile) and each of its learner profiles.
    uniqueIndex('enrolment_one_per_learner')
      .on(t.sessionId, t.learnerId, sql`coalesce(${t.learnerProfileId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`status <> 'dropped'`),
    index('enrolment_learner_profile_idx')
      .on(t.learnerProfileId)
      .where(sql`${t.learnerProfileId} is not null`),
    // The learner's enrolments, and their enrolment in one course (the course page's viewer part).
    index('enrolment_learner_course_idx').on(t.learnerId, t.courseId),
    index('enrolment_waitlist_idx')
      .on(t.sessionId, t.createdAt)
      .where(sql`status = 'waitlisted'`),
    index('enrolment_course_idx').on(t.courseId),
  ],
);

export const review = pgTable(
  'review',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    text: text('text').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('review_one_per_learner').on(t.courseId, t.learnerId),
    check('review_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);

/** The secret behind a user's private calendar feed URL. */
export const calendarFeed = pgTable('calendar_feed', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  token: text('token').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Every word of course titles and educator names (lower case), kept by a trigger on
 * course (drizzle/0006). Search corrects a typo to the nearest of these words (trigram
 * KNN, then edit distance): courses/search-typos.ts.
 */
export const searchWord = pgTable('search_word', { word: text('word').primaryKey() }, (t) => [
  index('search_word_trgm_idx').using('gist', sql`${t.word} gist_trgm_ops`),
]);

/**
 * Search postings: one row per word (lexeme) of the title and educator name of each
 * published course, in the order of relevance within a tier, with the filter columns.
 * A one-word search reads its top k and its filters index-only from course_term_walk_idx
 * (INCLUDEs the filter columns: drizzle/0027, which also adds the trigger that keeps the
 * table in step with `course`). docs/decisions/0028-course-search-postings.md.
 */
export const courseTerm = pgTable(
  'course_term',
  {
    lexeme: text('lexeme').notNull(),
    courseId: uuid('course_id').notNull(),
    unbookable: boolean('unbookable').notNull(),
    quality: real('quality'),
    category: text('category').notNull(),
    level: text('level').notNull(),
    format: text('format').notNull(),
    /** lower(city) */
    city: text('city'),
    priceCents: integer('price_cents').notNull(),
    nextStartOn: date('next_start_on', { mode: 'string' }),
    seatsLeft: integer('seats_left').notNull(),
    /** The course's age range (drizzle/0056: search by a learner's age). */
    minAge: smallint('min_age'),
    maxAge: smallint('max_age'),
  },
  (t) => [
    primaryKey({ columns: [t.lexeme, t.courseId] }),
    index('course_term_walk_idx').on(t.lexeme, t.unbookable, t.quality.desc(), t.courseId),
  ],
);

/**
 * The card of each published course (CourseCard as JSON text, made by the SQL function
 * course_card(course) of drizzle/0035), kept by a trigger like course_term: a search reads
 * its page's cards from this narrow table by primary key and sends them as they are,
 * without reading the wide course rows or building JSON per card
 * (docs/decisions/0034-search-text-and-lean-statements.md).
 */
export const courseCard = pgTable('course_card', {
  courseId: uuid('course_id').primaryKey(),
  card: text('card').notNull(),
});

/**
 * How many published courses have each lexeme anywhere (`search`) and in the title or
 * educator name (`search_title`), kept by the same trigger: the total of a one-word
 * search without counting its matches.
 */
export const searchLexeme = pgTable('search_lexeme', {
  lexeme: text('lexeme').primaryKey(),
  nAll: integer('n_all').notNull(),
  nTitle: integer('n_title').notNull(),
});

/**
 * Educators whose upcoming courses /explore shows on its "Featured" shelf. Courses owns the
 * placement and its rule (courses/featured.ts); payments grants and ends it with Educator Pro
 * through that module's functions, in the transaction that changes the plan
 * (docs/decisions/0037-fees-from-config-and-featured-shelf.md). A change notifies
 * course_changed (drizzle/0036) like a course row's, so no cached /explore outlives it.
 */
export const featuredEducator = pgTable('featured_educator', {
  educatorId: uuid('educator_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  since: ts('since').notNull().defaultNow(),
});
