/**
 * `npm run storage:migrate [-- --delete-source]`: copies the uploaded files kept on this
 * machine's disk (DATA_DIR/uploads) into the configured file store (PostgreSQL with
 * DATABASE_URL, S3 with S3_BUCKET; docs/decisions/0059-file-storage-backends.md), under the
 * same keys, so the addresses in the database keep working. Run it once per machine that
 * held uploads, with the environment the app runs with. Safe to repeat: files already in the
 * store are counted and left alone. --delete-source removes each disk copy once the store
 * holds the same bytes.
 */
import { loadConfig, ConfigError } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/client.js';
import { createFileStore } from '../src/server/storage/file-store.js';
import { migrateDiskToStore } from '../src/server/storage/migrate.js';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--delete-source');
if (unknown.length) {
  console.error(`storage:migrate: unknown option ${unknown[0]} (the only option is --delete-source)`);
  process.exit(2);
}

let config;
try {
  config = loadConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(2);
}
if (config.storage.backend === 'disk') {
  console.log(
    `storage:migrate: the configured store is the disk (${config.dataDir}/uploads) itself; set DATABASE_URL or S3_BUCKET (or STORAGE_BACKEND) to move files off it`,
  );
  process.exit(0);
}

const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
const store = createFileStore(config.storage, { dataDir: config.dataDir, database });
try {
  const report = await migrateDiskToStore(config.dataDir, store, { deleteSource: args.includes('--delete-source') });
  for (const s of report.skipped) console.log(`skipped ${s.file}: ${s.reason}`);
  console.log(
    `storage:migrate to ${config.storage.backend}: ${report.found} found, ${report.copied} copied, ` +
      `${report.alreadyThere} already there, ${report.skipped.length} skipped, ${report.deleted} deleted from disk`,
  );
} catch (err) {
  console.error(`storage:migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await store.close();
  await database.close();
}
