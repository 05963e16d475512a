import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compactPlaceholders, fixedText } from '../../src/server/db/fixed-text.js';

/** The statement helpers of hot prepared statements (src/server/db/fixed-text.ts). */
describe('compactPlaceholders', () => {
  it('sends each placeholder once, however often the text uses it; inline values keep their own parameter', () => {
    const q = sql`select ${sql.placeholder('a')}::int + ${sql.placeholder('b')}::int, ${sql.placeholder('a')}::int * ${7},
      ${sql.placeholder('b')}::int, ${sql.placeholder('a')}::int, ${'x'}::text, ${sql.placeholder('c')}::text`;
    const plain = new PgDialect().sqlToQuery(q);
    expect(plain.params).toHaveLength(8);
    const compact = compactPlaceholders(plain);
    expect(compact.sql).toBe(
      plain.sql
        .replace('$1::int + $2::int, $3::int * $4', '$1::int + $2::int, $1::int * $3')
        .replace('$5::int, $6::int, $7::text, $8::text', '$2::int, $1::int, $4::text, $5::text'),
    );
    expect(compact.params.map((p) => (typeof p === 'object' && p && 'name' in p ? `:${String(p.name)}` : p))).toEqual([
      ':a',
      ':b',
      7,
      'x',
      ':c',
    ]);
  });

  it('renumbers $10 and beyond whole, never as $1 followed by a digit', () => {
    const names = 'abcdefghijkl'.split('');
    const q = sql.join(
      [...names, ...names].map((n) => sql`${sql.placeholder(n)}::int`),
      sql`, `,
    );
    const compact = compactPlaceholders(new PgDialect().sqlToQuery(sql`select ${q}`));
    expect(compact.params).toHaveLength(12);
    expect(compact.sql).toBe(`select ${[...names, ...names].map((_, i) => `$${(i % 12) + 1}::int`).join(', ')}`);
  });
});

describe('fixedText', () => {
  it('builds the text once and fills the values by name on each call', () => {
    let built = 0;
    const text = fixedText<{ a: number; b: string }>((v) => {
      built++;
      return sql`select ${v('a')}::int, ${v('b')}::text, ${v('a')}::int`;
    });
    expect(text({ a: 1, b: 'one' })).toEqual({ sql: 'select $1::int, $2::text, $1::int', params: [1, 'one'] });
    expect(text({ a: 2, b: 'two' })).toEqual({ sql: 'select $1::int, $2::text, $1::int', params: [2, 'two'] });
    expect(built).toBe(1);
  });
});
