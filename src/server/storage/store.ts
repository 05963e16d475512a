import type { StorageConfig } from '../config.js';
import { AppError } from '../http/errors.js';
import { StorageKeyError } from './keys.js';

/** What a store knows of a file without reading it. */
export interface FileInfo {
  /** SHA-256 of the bytes, hex: the strong ETag. */
  sha256: string;
  contentType: string;
  size: number;
}

export interface StoredFile extends FileInfo {
  body: Buffer;
}

/**
 * Every uploaded file goes through this (docs/decisions/0059-file-storage-backends.md). Keys
 * are made by the server (storage/keys.ts); a key is written once: put() of a key that holds
 * the same bytes changes nothing, so it is safe to repeat (migration, two instances seeding).
 */
export interface FileStore {
  readonly backend: StorageConfig['backend'];
  put(key: string, body: Buffer, contentType: string): Promise<FileInfo>;
  /** The file, or null when there is none under that key. */
  get(key: string): Promise<StoredFile | null>;
  head(key: string): Promise<FileInfo | null>;
  /** Removes the file; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Where browsers fetch the file from when not through this app (a CDN before the bucket). */
  publicUrl(key: string): string | null;
  /** True when the store answers (a readiness check; the app logs a warning at start when not). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A backend failed (bucket unreachable, credentials refused, disk unreadable): the request
 * answers 503, never 500; the log has the cause (http/errors.ts logs every 5xx AppError).
 * PostgreSQL's failures are the database's own and answer 503 the same way.
 */
export class StorageUnavailableError extends AppError {
  constructor(
    readonly backend: string,
    readonly cause: unknown,
  ) {
    super(503, 'storage_unavailable', 'File storage is not answering. Please try again in a moment.', { retryAfterSeconds: 5 });
  }
}

export async function guard<T>(backend: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof StorageUnavailableError || err instanceof StorageKeyError) throw err;
    throw new StorageUnavailableError(backend, err);
  }
}
