/**
 * `npm run migrate`: applies the migrations this build lacks, then exits (0 when the schema is
 * current). For deploy pipelines: run it once before the new version starts, and start the
 * app with MIGRATE_ON_START=false (ADR 0062). Safe to run from several places at once: it
 * takes the same advisory lock as a starting app. Reads DATABASE_URL (PGlite under DATA_DIR
 * without it).
 */
import { openDatabase } from '../src/server/db/client.js';

async function main() {
  const url = process.env.DATABASE_URL || undefined;
  const t0 = performance.now();
  const database = await openDatabase({ url, dataDir: process.env.DATA_DIR || './data', poolSize: 1, migrate: true });
  try {
    if (!(await database.schemaCurrent())) throw new Error('the migrations ran but the schema is not current');
    console.log(
      `migrations applied: the ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} schema is current (${Math.round(performance.now() - t0)} ms)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(`migrations failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
