import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { SandboxDb } from './store.js';

const MIGRATIONS = new URL('../migrations', import.meta.url).pathname;
/** Any constant: serialises migrations of several processes sharing one database (tests). */
const LOCK = 0x5354_5249_5045;

/**
 * Creates or updates the sandbox's schema (`stripe_sandbox`) in the database it was given.
 * The SQL is drizzle-kit's (../migrations); it is applied here rather than by drizzle's
 * driver-specific migrators so that one code path serves node-postgres, PGlite or any
 * drizzle PostgreSQL driver, under a lock so that concurrent starts apply it once. The
 * ledger of applied migrations is `stripe_sandbox.migration`, apart from the host app's.
 */
export async function migrateSandbox(db: SandboxDb): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS });
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK})`);
    await tx.execute(sql`create schema if not exists stripe_sandbox`);
    await tx.execute(sql`create table if not exists stripe_sandbox.migration (hash text primary key, created_at bigint not null)`);
    const rows = await tx.execute<{ hash: string }>(sql`select hash from stripe_sandbox.migration`);
    const applied = new Set(rowsOf<{ hash: string }>(rows).map((r) => r.hash));
    for (const m of migrations) {
      if (applied.has(m.hash)) continue;
      for (const statement of m.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into stripe_sandbox.migration (hash, created_at) values (${m.hash}, ${m.folderMillis})`);
    }
  });
}

/** node-postgres answers { rows }, PGlite and others an array or { rows } as well. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
