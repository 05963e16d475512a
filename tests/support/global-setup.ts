import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRunDatabase, type RunDatabase } from './run-database.js';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.js';

/**
 * Once per test run: a fresh database on the local PostgreSQL (migrated once here, so
 * parallel workers never race on migrations), dropped at the end. Without a reachable
 * PostgreSQL the run falls back to PGlite and says so.
 */
export default async function setup(project: TestProject) {
  const tmpRoot = mkdtempSync(path.join(tmpdir(), 'agora-api-tests-'));
  project.provide('tmpRoot', tmpRoot);

  const made = await createRunDatabase('agora_test');
  const run: RunDatabase | null = 'error' in made ? null : made;
  if (run) {
    const db = await openDatabase({ url: run.url, dataDir: tmpRoot, poolSize: 1 });
    await db.close();
    console.log(`\n  API tests on PostgreSQL, database ${run.name} (dropped at the end)\n`);
  } else {
    console.warn(`\n  no PostgreSQL reachable: running on PGlite (${(made as { error: string }).error})\n`);
  }
  project.provide('databaseUrl', run?.url ?? null);

  return async () => {
    await run?.drop();
    rmSync(tmpRoot, { recursive: true, force: true });
  };
}
