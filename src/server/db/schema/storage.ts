import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Bytes, as a Buffer whichever driver read them (node-postgres gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded files kept in PostgreSQL (the storage backend with DATABASE_URL and no bucket,
 * docs/decisions/0059-file-storage-backends.md). A key is written once and never changed.
 */
export const storedFile = pgTable('stored_file', {
  /** A server-made key such as `avatars/<content hash>.webp` (storage/keys.ts). */
  key: text('key').primaryKey(),
  /** The SHA-256 of `content`, hex: the strong ETag. */
  sha256: text('sha256').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  content: bytea('content').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
