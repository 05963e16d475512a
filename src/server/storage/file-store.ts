import type { StorageConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { createDiskStore } from './disk-store.js';
import { createPostgresStore } from './postgres-store.js';
import { createS3Store } from './s3-store.js';
import type { FileStore } from './store.js';

export type { FileInfo, FileStore, StoredFile } from './store.js';
export { StorageUnavailableError } from './store.js';

/** The store the configuration names. */
export function createFileStore(storage: StorageConfig, opts: { dataDir: string; database: Database }): FileStore {
  switch (storage.backend) {
    case 'disk':
      return createDiskStore(opts.dataDir);
    case 'postgres':
      return createPostgresStore(opts.database);
    case 's3':
      return createS3Store(storage.s3);
  }
}
