import { createHash } from 'node:crypto';

/**
 * Storage keys. Only the server makes them (`folder/name.ext`, from a fixed folder list and a
 * hash or UUID); a key read from a request is accepted only when it has this exact shape, so
 * no request ever names a path, a prefix or another bucket (`..`, `/`, `%2f` cannot pass).
 */
const KEY = /^([a-z][a-z0-9-]{0,31})\/([A-Za-z0-9-]{8,80})\.([a-z0-9]{2,5})$/;

/** What each extension is served as: the server's choice, never the uploader's. */
const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
  key: 'application/vnd.apple.keynote',
};

/**
 * Folders whose files are served only by the domain that owns them, after its access check
 * (a classroom's materials): /uploads/ answers 404 for them.
 */
const PRIVATE_FOLDERS = new Set(['classroom']);

/** True for a key of a private folder (never served at /uploads/). */
export const isPrivateKey = (key: string) => PRIVATE_FOLDERS.has(key.split('/')[0]);

/** A key the server would not make: a programming error, never the storage's failure. */
export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`not a storage key: ${JSON.stringify(key)}`);
  }
}

export function isStorageKey(key: string): boolean {
  const m = KEY.exec(key);
  return !!m && m[3] in CONTENT_TYPES;
}

/** The content type a key is served with (its extension's). */
export function contentTypeOf(key: string): string {
  const m = KEY.exec(key);
  const type = m && CONTENT_TYPES[m[3]];
  if (!type) throw new StorageKeyError(key);
  return type;
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new StorageKeyError(key);
}

export const sha256Hex = (body: Uint8Array) => createHash('sha256').update(body).digest('hex');

/**
 * A content-addressed key: the same bytes always get the same key, and a key's bytes never
 * change, so it is cached for a year as immutable. 128 bits of the SHA-256 name it.
 */
export function contentKey(folder: string, body: Uint8Array, ext: string): string {
  const key = `${folder}/${sha256Hex(body).slice(0, 32)}.${ext}`;
  assertStorageKey(key);
  return key;
}

/** The path an uploaded file is served at by this app (storage/serve.ts). */
export const UPLOADS_PREFIX = '/uploads/';
export const uploadPath = (key: string) => `${UPLOADS_PREFIX}${key}`;
