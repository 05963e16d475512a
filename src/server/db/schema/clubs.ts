import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { ts } from './columns.js';

/**
 * Clubs (docs/decisions/0020-clubs-model.md): a club has memberships (one owner,
 * organisers, members, pending requests, removed/banned people) and events; members
 * answer an event with an RSVP. Derived counts (member_count, going_count) are kept in the
 * transaction of the write that changes them; repeats are separate event rows of one series.
 */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const club = pgTable(
  'club',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Markdown, rendered with the course renderer (no HTML). */
    description: text('description').notNull(),
    category: text('category').notNull(),
    /** Where the club meets; null with online = true for an online-only club. */
    city: text('city'),
    online: boolean('online').notNull().default(false),
    coverImage: text('cover_image'),
    /** public (anyone joins at once) | approval (an organiser approves requests). */
    visibility: text('visibility').notNull().default('public'),
    joinQuestion: text('join_question'),
    rules: text('rules').notNull().default(''),
    createdBy: uuid('created_by').references(() => user.id, { onDelete: 'set null' }),
    /** Active memberships (every role), kept in the transaction of each join, leave, approval and removal. */
    memberCount: integer('member_count').notNull().default(0),
    /**
     * The start of the next scheduled event, for search ("has upcoming events", "next
     * event"); kept on every event write and refreshed by a keyed job when it passes.
     * Search shows it for public clubs only (approval clubs' events are members-only).
     */
    nextEventAt: ts('next_event_at'),
    search: tsvector('search').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(city, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'C')`,
    ),
    /** Name and city only: tier 1 of relevance search, narrow enough to ride in club_members_idx (clubs/search-clubs.ts). */
    searchName: tsvector('search_name').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(city, '')), 'A')`,
    ),
    /**
     * The card's line (search, home, featured): the description's first 160 characters as plain
     * text, made by club_summary() (migration 0033) on every write of the description, so a card
     * reads it instead of the description (docs/decisions/0046-club-cards-at-write-time.md).
     */
    summary: text('summary')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`club_summary(description)`),
    /**
     * The card as JSON text up to its last two keys (memberCount and nextEventAt, which change
     * often or depend on now()), made by club_card_head() (migration 0034) on every write of its
     * columns: search appends the two and sends the text, building no JSON (clubs/search-clubs.ts).
     */
    cardHead: text('card_head')
      .notNull()
      .generatedAlwaysAs(
        (): SQL => sql`club_card_head(id, name, club_summary(description), category, city, online, cover_image, visibility)`,
      ),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('club_search_idx').using('gin', t.search),
    index('club_search_name_idx').using('gin', t.searchName),
    // "Most members" and relevance within a tier. The migration (0025) adds INCLUDE
    // (search_name and every filter column; Drizzle cannot declare INCLUDE): a tier-1 walk
    // is index-only (docs/decisions/0026-clubs-at-scale.md).
    index('club_members_idx').on(t.memberCount.desc(), t.id),
    index('club_next_event_idx')
      .on(t.nextEventAt, t.id)
      .where(sql`visibility = 'public' and next_event_at is not null`),
    index('club_city_idx').on(sql`lower(city)`, t.memberCount.desc()),
    index('club_category_idx').on(t.category, t.memberCount.desc(), t.id),
    check('club_visibility_valid', sql`${t.visibility} in ('public', 'approval')`),
    check('club_member_count', sql`${t.memberCount} >= 0`),
  ],
);

/** Words of club names and cities, for typo correction in club search (as search_word for courses). */
export const clubSearchWord = pgTable('club_search_word', { word: text('word').primaryKey() }, (t) => [
  index('club_search_word_trgm_idx').using('gist', sql`${t.word} gist_trgm_ops`),
]);

/**
 * Club search's postings (docs/decisions/0045-club-search-one-word-postings.md): one row per
 * lexeme of a club's `search` vector (name, city, description), with the order of relevance
 * (tier 1: the lexeme is in the name or city, 2: description only; then most members) and
 * the filter columns, so a one-word search is an index-only walk of club_term_walk_idx.
 * Kept by the club row trigger club_search_postings (migration 0032); no foreign key (the
 * trigger deletes a club's rows with it).
 */
export const clubTerm = pgTable(
  'club_term',
  {
    lexeme: text('lexeme').notNull(),
    clubId: uuid('club_id').notNull(),
    /** 1: in the name or city (search_name); 2: in the description only. */
    tier: smallint('tier').notNull(),
    memberCount: integer('member_count').notNull(),
    category: text('category').notNull(),
    /** lower(city) */
    city: text('city'),
    online: boolean('online').notNull(),
    visibility: text('visibility').notNull(),
    nextEventAt: ts('next_event_at'),
  },
  (t) => [
    // The migration adds INCLUDE (the filter columns) to both (Drizzle cannot declare INCLUDE).
    primaryKey({ columns: [t.lexeme, t.clubId] }),
    index('club_term_walk_idx').on(t.lexeme, t.tier, t.memberCount.desc(), t.clubId),
  ],
);

/** How many clubs have each lexeme (anywhere in `search`), kept by a statement trigger: the total of a one-word search. */
export const clubLexeme = pgTable('club_lexeme', {
  lexeme: text('lexeme').primaryKey(),
  nAll: integer('n_all').notNull(),
});

/**
 * How frequent words and filter values are among clubs, copied from PostgreSQL's own
 * statistics (pg_stats of club) by refresh_club_search_stat() (migration 0025): club search
 * reads it by key to choose its plan and estimate a frequent word's total
 * (clubs/search-clubs.ts). col: search | search_name (val a lexeme, or ':min', the least
 * listed frequency), category, city (lower case), online (t/f), visibility,
 * next_event_at (':notnull'), club (':rows', the number of clubs, in freq).
 */
export const clubSearchStat = pgTable(
  'club_search_stat',
  { col: text('col').notNull(), val: text('val').notNull(), freq: real('freq').notNull() },
  (t) => [primaryKey({ columns: [t.col, t.val] })],
);

export const clubMembership = pgTable(
  'club_membership',
  {
    clubId: uuid('club_id')
      .notNull()
      .references(() => club.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** owner | organiser | member */
    role: text('role').notNull().default('member'),
    /** active | pending (a request) | removed | banned (neither may rejoin) */
    state: text('state').notNull(),
    /** The answer to the club's join question, given with a request. */
    joinAnswer: text('join_answer'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.userId] }),
    // Exactly one owner: at most one here, at least one by the use cases (create, transfer).
    uniqueIndex('club_one_owner_uq')
      .on(t.clubId)
      .where(sql`role = 'owner'`),
    index('club_membership_user_idx').on(t.userId, t.state),
    index('club_membership_club_state_idx').on(t.clubId, t.state, t.role),
    check('club_membership_role_valid', sql`${t.role} in ('owner', 'organiser', 'member')`),
    check('club_membership_state_valid', sql`${t.state} in ('active', 'pending', 'removed', 'banned')`),
  ],
);

export const clubEvent = pgTable(
  'club_event',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clubId: uuid('club_id')
      .notNull()
      .references(() => club.id, { onDelete: 'cascade' }),
    /** The events of one repeat ("every second Tuesday"); each row is changed on its own. */
    seriesId: uuid('series_id'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** The organiser's zone: wall-clock times of repeats are kept in it across DST changes. */
    timeZone: text('time_zone').notNull(),
    onlineUrl: text('online_url'),
    address: text('address'),
    capacity: integer('capacity'),
    rsvpDeadline: ts('rsvp_deadline'),
    /** scheduled | cancelled */
    status: text('status').notNull().default('scheduled'),
    /** RSVPs that are going, kept under the event's row lock: never above capacity. */
    goingCount: integer('going_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('club_event_club_idx').on(t.clubId, t.startsAt),
    // The other dates of a repeat (explore's "and 5 more dates").
    index('club_event_series_idx')
      .on(t.seriesId, t.startsAt)
      .where(sql`series_id is not null`),
    index('club_event_upcoming_idx')
      .on(t.startsAt)
      .where(sql`status = 'scheduled'`),
    check('club_event_times', sql`${t.endsAt} > ${t.startsAt}`),
    check('club_event_status_valid', sql`${t.status} in ('scheduled', 'cancelled')`),
    check('club_event_capacity', sql`${t.capacity} is null or (${t.capacity} >= 1 and ${t.goingCount} <= ${t.capacity})`),
    check('club_event_going', sql`${t.goingCount} >= 0`),
  ],
);

/** Waitlist order: taken under the event's row lock, so it is the order the answers were given. */
export const clubRsvpOrder = pgSequence('club_rsvp_order_seq');

export const clubRsvp = pgTable(
  'club_rsvp',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => clubEvent.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** going | waitlisted | not_going */
    status: text('status').notNull(),
    answeredAt: ts('answered_at').notNull().defaultNow(),
    /** The place in the waitlist (lower first); set when waitlisted. */
    queueOrder: bigint('queue_order', { mode: 'number' }),
    /** Reminders already announced for this answer ('24h', '1h'): set with the announcement, so none fires twice. */
    reminded: text('reminded')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId] }),
    index('club_rsvp_event_idx').on(t.eventId, t.status, t.queueOrder),
    index('club_rsvp_user_idx').on(t.userId, t.status),
    check('club_rsvp_status_valid', sql`${t.status} in ('going', 'waitlisted', 'not_going')`),
  ],
);
