import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { storedFile } from '../db/schema/storage.js';
import type { FileStore } from './store.js';
import { assertStorageKey, sha256Hex } from './keys.js';

/**
 * Files in the `stored_file` table of the app's database: every instance on that database
 * serves every file with no other setting (docs/decisions/0059-file-storage-backends.md).
 * Its failures are the database's: they answer 503 like every query's (http/errors.ts).
 */
export function createPostgresStore(database: Database): FileStore {
  const { db } = database;
  const info = { sha256: storedFile.sha256, contentType: storedFile.contentType, size: storedFile.size };
  return {
    backend: 'postgres',
    async put(key, body, contentType) {
      assertStorageKey(key);
      const sha256 = sha256Hex(body);
      // A key is written once: the same key again (another instance, a repeated migration)
      // keeps the first row untouched; a different body under a taken key replaces it, as on disk.
      await db
        .insert(storedFile)
        .values({ key, sha256, contentType, size: body.length, content: body })
        .onConflictDoUpdate({
          target: storedFile.key,
          set: { sha256, contentType, size: body.length, content: body },
          setWhere: sql`${storedFile.sha256} <> excluded.sha256`,
        });
      return { sha256, contentType, size: body.length };
    },
    async get(key) {
      assertStorageKey(key);
      const [row] = await db
        .select({ ...info, body: storedFile.content })
        .from(storedFile)
        .where(eq(storedFile.key, key));
      return row ?? null;
    },
    async head(key) {
      assertStorageKey(key);
      const [row] = await db.select(info).from(storedFile).where(eq(storedFile.key, key));
      return row ?? null;
    },
    async delete(key) {
      assertStorageKey(key);
      await db.delete(storedFile).where(eq(storedFile.key, key));
    },
    publicUrl: () => null,
    ping: () => database.ping(),
    close: async () => {},
  };
}
