import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { guard, type FileInfo, type FileStore } from './store.js';
import { assertStorageKey, contentTypeOf, sha256Hex } from './keys.js';

/**
 * Files under DATA_DIR/uploads/<key>: the embedded default. It serves one instance, or
 * several that share the directory (a network mount); instances on separate disks each see
 * only their own files (use PostgreSQL or a bucket then).
 */
export function createDiskStore(dataDir: string): FileStore & { root: string } {
  const root = path.resolve(dataDir, 'uploads');
  // A key's bytes never change: its hash is computed once per process.
  const hashes = new Map<string, string>();
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  };
  const remember = (key: string, sha256: string) => {
    if (hashes.size >= 10_000) hashes.delete(hashes.keys().next().value!);
    hashes.set(key, sha256);
  };
  const read = async (key: string) => {
    try {
      return await readFile(fileOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };

  return {
    backend: 'disk',
    root,
    put: (key, body, contentType) =>
      guard('disk', async () => {
        const file = fileOf(key);
        await mkdir(path.dirname(file), { recursive: true });
        // Written whole under a temporary name, then renamed: a reader never sees half a file.
        const temp = `${file}.${randomUUID()}.tmp`;
        await writeFile(temp, body);
        await rename(temp, file);
        const sha256 = sha256Hex(body);
        remember(key, sha256);
        return { sha256, contentType, size: body.length };
      }),
    get: (key) =>
      guard('disk', async () => {
        const body = await read(key);
        if (!body) return null;
        let sha256 = hashes.get(key);
        if (!sha256) remember(key, (sha256 = sha256Hex(body)));
        return { body, sha256, contentType: contentTypeOf(key), size: body.length };
      }),
    head: (key) =>
      guard('disk', async (): Promise<FileInfo | null> => {
        const known = hashes.get(key);
        if (known) {
          const size = await stat(fileOf(key)).then(
            (s) => s.size,
            () => null,
          );
          if (size !== null) return { sha256: known, contentType: contentTypeOf(key), size };
          hashes.delete(key);
          return null;
        }
        const file = await read(key);
        if (!file) return null;
        const sha256 = sha256Hex(file);
        remember(key, sha256);
        return { sha256, contentType: contentTypeOf(key), size: file.length };
      }),
    delete: (key) =>
      guard('disk', async () => {
        hashes.delete(key);
        await rm(fileOf(key), { force: true });
      }),
    publicUrl: () => null,
    ping: async () => {
      try {
        await mkdir(root, { recursive: true });
        await access(root, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {},
  };
}
