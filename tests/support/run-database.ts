import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The maintenance database of the local PostgreSQL the test runs create their database on. */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface RunDatabase {
  name: string;
  url: string;
  /** Drops the database (every connection closed by force); a failure is only reported. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test run (API or end to end), or the reason none could be
 * made (no PostgreSQL reachable: the caller falls back to PGlite and says so).
 */
export async function createRunDatabase(prefix: string): Promise<RunDatabase | { error: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  try {
    await adminQuery(`create database "${name}"`);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      adminQuery(`drop database if exists "${name}" with (force)`).catch((err) => {
        console.warn(`  could not drop test database ${name}: ${(err as Error).message}`);
      }),
  };
}
