import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './cleanup.js';

/** The maintenance database of the server to create the bench database on (BENCH_ADMIN_URL overrides). */
export const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export type BenchDatabase = { kind: 'postgres'; url: string; name: string } | { kind: 'pglite'; reason: string };

/**
 * A fresh, empty database on the local PostgreSQL (dropped at cleanup), or PGlite in
 * the server's DATA_DIR when PostgreSQL is not reachable.
 */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    await admin.end().catch(() => {});
    return {
      kind: 'pglite',
      reason: `PostgreSQL at ${new URL(ADMIN_URL).host} not reachable (${err instanceof Error ? err.message : err})`,
    };
  }
  const name = `agora_bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  onCleanup(`drop database ${name}`, () => dropDatabase(name));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { kind: 'postgres', name, url: url.toString() };
}

async function dropDatabase(name: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    // FORCE (PostgreSQL 13+) ends connections a killed server may have left behind.
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
