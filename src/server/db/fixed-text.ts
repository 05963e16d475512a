import { fillPlaceholders, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A statement's text and its parameters, as node-postgres takes them. */
export interface Compiled {
  sql: string;
  params: unknown[];
}

const dialect = new PgDialect();

/**
 * The statement with one parameter per placeholder name: drizzle numbers every occurrence
 * of `sql.placeholder(name)` as its own parameter ($1, $2 ... for the same value), and a
 * hot statement that uses a value in ten places sent, bound and type-checked it ten times.
 * Measured on the one-word course search (117 parameters for 14 values): node-postgres and
 * PostgreSQL each spent ~0.2 ms a call on them (docs/decisions/0034-search-text-and-lean-statements.md).
 * Inline values (not placeholders) keep a parameter each. The parameter numbers in the text
 * are renumbered in one pass; the statements this serves have no `$n` inside a literal.
 */
export function compactPlaceholders(compiled: Compiled): Compiled {
  const position = new Map<string, number>();
  const params: unknown[] = [];
  const renumber = compiled.params.map((p) => {
    if (p instanceof Placeholder) {
      const known = position.get(p.name);
      if (known) return known;
      params.push(p);
      position.set(p.name, params.length);
      return params.length;
    }
    params.push(p);
    return params.length;
  });
  const text = compiled.sql.replace(/\$(\d+)\b/g, (_, n: string) => `$${renumber[Number(n) - 1]}`);
  return { sql: text, params };
}

/**
 * A statement whose text never changes: built once from its shape with a placeholder for
 * every value (one parameter per name), then only the values are filled per call (building
 * a large statement with drizzle's sql template cost 0.1-0.5 ms of Node per search).
 */
export function fixedText<V extends Record<string, unknown>>(
  shape: (v: (name: keyof V & string) => Placeholder) => SQL,
): (values: V) => Compiled {
  let template: Compiled | undefined;
  return (values) => {
    template ??= compactPlaceholders(dialect.sqlToQuery(shape((name) => sql.placeholder(name))));
    return { sql: template.sql, params: fillPlaceholders(template.params, values) };
  };
}
