import { sql } from 'drizzle-orm';

/**
 * A course card (CourseCard) is made by PostgreSQL: the SQL function course_card(course)
 * (drizzle/0035) is its one definition, and course_card (the table) keeps the card of every
 * published course, which search reads by primary key. Search sends the cards' text as the
 * answer's items, never parsed nor written again by Node
 * (docs/decisions/0034-search-text-and-lean-statements.md).
 *
 * CARD_COLUMNS: a course row's card (`card`) and the columns the lists order by; CARD_JSON:
 * that card as a json value (explore and the landing page aggregate and parse it).
 */
export const CARD_COLUMNS = sql.raw('id, course_card(course) as card, quality, price_cents, rating_avg, rating_count, next_start_on');
export const CARD_JSON = sql.raw('card::json');
