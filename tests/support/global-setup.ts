import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRunDatabase, TEMPLATE_ENV, type RunDatabase } from './run-database.js';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.js';
import { ensureServerBundle } from './server-command.js';

/**
 * Once per test run: a fresh database on the local PostgreSQL, dropped at the end, copied from
 * a template migrated here once (so parallel workers never race on migrations, and the files
 * that need an empty database of their own copy it too instead of migrating: TEMPLATE_ENV).
 * Each vitest project runs this; the first one makes the template, the others reuse it.
 * Without a reachable PostgreSQL the run falls back to PGlite and says so.
 */
export default async function setup(project: TestProject) {
  // The files that start real server processes run the bundle `npm start` runs (built once).
  ensureServerBundle();
  const tmpRoot = mkdtempSync(path.join(tmpdir(), 'agora-api-tests-'));
  project.provide('tmpRoot', tmpRoot);

  let template: RunDatabase | null = null;
  if (!process.env[TEMPLATE_ENV]) {
    const made = await createRunDatabase('agora_test_template');
    template = 'error' in made ? null : made;
    if (template) {
      const db = await openDatabase({ url: template.url, dataDir: tmpRoot, poolSize: 1 });
      await db.close();
      process.env[TEMPLATE_ENV] = template.name;
    } else {
      console.warn(`\n  no PostgreSQL reachable: running on PGlite (${(made as { error: string }).error})\n`);
    }
  }
  const made = process.env[TEMPLATE_ENV] ? await createRunDatabase('agora_test') : null;
  const run: RunDatabase | null = made && !('error' in made) ? made : null;
  if (run) console.log(`\n  API tests (${project.name}) on PostgreSQL, database ${run.name} (dropped at the end)\n`);
  project.provide('databaseUrl', run?.url ?? null);

  return async () => {
    await run?.drop();
    if (template) {
      await template.drop();
      delete process.env[TEMPLATE_ENV];
    }
    rmSync(tmpRoot, { recursive: true, force: true });
  };
}
