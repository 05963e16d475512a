import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { oneWordQuery, oneWordSql, oneWordTotal } from '../../src/server/courses/search-one-word.js';
import type { SearchParams } from '../../src/server/courses/search-parts.js';

/** The total of a one-word search from the lexeme counts and the filter sample (search-one-word.ts). */
const row = (r: Partial<Parameters<typeof oneWordTotal>[0]>) => ({
  items: '[]',
  shown: 0,
  replan: false,
  n_all: 0,
  n_title: 0,
  seen: null,
  kept: null,
  exact_n: null,
  capped_n: null,
  ...r,
});

describe('oneWordTotal', () => {
  it('without filters: the lexeme count, exact, however large', () => {
    expect(oneWordTotal(row({ n_all: 28_373, n_title: 3346 }), false, 20)).toEqual({ total: 28_373, totalKind: 'exact' });
  });

  it('with filters and few matches: the count', () => {
    expect(oneWordTotal(row({ n_all: 200, n_title: 50, exact_n: 37 }), true, 20)).toEqual({ total: 37, totalKind: 'exact' });
    expect(oneWordTotal(row({ n_all: 700, capped_n: 640 }), true, 20)).toEqual({ total: 640, totalKind: 'exact' });
  });

  it('with filters and many matches: the sampled share of the count, two significant digits, "about"', () => {
    // 1000 of 3358 title matches sampled, 120 pass: 3358 * 0.12 = 403 -> 400.
    expect(oneWordTotal(row({ n_all: 3358, n_title: 3358, seen: 1000, kept: 120 }), true, 20)).toEqual({ total: 400, totalKind: 'about' });
    // Every title match sampled: exact for them, the share for description-only matches.
    expect(oneWordTotal(row({ n_all: 1250, n_title: 619, seen: 619, kept: 100 }), true, 20)).toEqual({
      total: Math.round((100 + 631 * (100 / 619)) / 10) * 10,
      totalKind: 'about',
    });
    // All matches are title matches and all were sampled: exact.
    expect(oneWordTotal(row({ n_all: 619, n_title: 619, seen: 619, kept: 88 }), true, 20)).toEqual({ total: 88, totalKind: 'exact' });
    // Never below what the pages have shown.
    expect(oneWordTotal(row({ n_all: 5000, n_title: 4000, seen: 1000, kept: 0 }), true, 45)).toEqual({ total: 45, totalKind: 'about' });
  });
});

/** The value of each `$n` of a statement, in the order they appear in its text. */
const valuesInPlace = (q: { sql: string; params: unknown[] }) => [...q.sql.matchAll(/\$(\d+)\b/g)].map((m) => q.params[Number(m[1]) - 1]);

describe('oneWordQuery', () => {
  it('is the SQL of oneWordSql, text built once, parameters filled per search', () => {
    for (const p of [
      { q: 'kids' },
      { q: 'Python', format: 'online', hasSeats: 'true', maxPrice: 20000, level: 'beginner', page: 3, pageSize: 7 },
      { q: 'yoga', city: ' Lisbon ', free: 'false', category: 'sports', startsAfter: '2030-01-01', minPrice: 0 },
    ]) {
      const params = { sort: 'relevance', page: 1, pageSize: 20, ...p } as SearchParams;
      const plain = new PgDialect().sqlToQuery(oneWordSql(params));
      const fixed = oneWordQuery(params);
      // The same text and the same value at every parameter's place, each name sent once.
      expect(fixed.sql.replace(/\$\d+/g, '$')).toBe(plain.sql.replace(/\$\d+/g, '$'));
      expect(valuesInPlace(fixed)).toEqual(valuesInPlace(plain));
      expect(fixed.params.length).toBeLessThan(plain.params.length);
    }
  });
});
