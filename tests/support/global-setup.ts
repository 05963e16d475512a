import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.js';

/**
 * Once per test run: a fresh database on the local PostgreSQL (migrated once here, so
 * parallel workers never race on migrations), dropped at the end. Without a reachable
 * PostgreSQL the run falls back to PGlite and says so.
 */
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

export default async function setup(project: TestProject) {
  const tmpRoot = mkdtempSync(path.join(tmpdir(), 'agora-api-tests-'));
  project.provide('tmpRoot', tmpRoot);

  const name = `agora_test_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string | null = null;
  try {
    await adminQuery(`create database "${name}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  } catch (err) {
    console.warn(`\n  no PostgreSQL reachable: running on PGlite (${(err as Error).message})\n`);
  }

  if (databaseUrl) {
    const db = await openDatabase({ url: databaseUrl, dataDir: tmpRoot, poolSize: 1 });
    await db.close();
    console.log(`\n  API tests on PostgreSQL, database ${name} (dropped at the end)\n`);
  }
  project.provide('databaseUrl', databaseUrl);

  return async () => {
    if (databaseUrl) {
      await adminQuery(`drop database if exists "${name}" with (force)`).catch((err) => {
        console.warn(`could not drop test database ${name}: ${(err as Error).message}`);
      });
    }
    rmSync(tmpRoot, { recursive: true, force: true });
  };
}
