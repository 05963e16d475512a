import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/**
 * What course search and club search (clubs/search-clubs.ts) share: the search text as both
 * see it, the one-word test, an answer's items as JSON text, the sample and the rounding of
 * an estimated total, and how a search runs its statements.
 */

/**
 * The values `element` of the rows of a from-clause, in this order, as a JSON array in text
 * (each element is JSON text already): search answers' items as PostgreSQL wrote them, sent
 * without being parsed or written again by Node. Club search uses it too.
 */
export const jsonArrayText = (element: SQL, order: SQL, from: SQL) =>
  sql`(select '[' || coalesce(string_agg(${element}, ',' order by ${order}), '') || ']' ${from})`;

/** The search text as the cache and the queries see it: trimmed, single spaces, lower case. */
export function normalizeQuery(q: string | undefined): string | undefined {
  const v = q?.replace(/\s+/g, ' ').trim().toLowerCase();
  return v ? v : undefined;
}

/** A search of one word (letters and digits only: one lexeme at most, or none for a stop word). Club search uses it too. */
export const ONE_WORD = /^[\p{L}\p{N}]+$/u;

/** A filtered one-word search estimates the filters' share from this many title matches. */
export const SAMPLE = 1000;

/** Two significant digits: an estimate does not pretend to more. */
export const roughly = (n: number) => {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
};

export type Rows<T> = { rows: T[] };

/**
 * Runs the statements of a search. `prepared` runs a statement of a fixed shape as a named
 * prepared statement planned once per connection (a generic plan); without it, or for the
 * other shapes, every statement is parsed and planned for its own values.
 */
export interface SearchRunner {
  db: Db;
  prepared?: (name: string, query: SQL | { sql: string; params: unknown[] }) => Promise<Rows<unknown>>;
}
