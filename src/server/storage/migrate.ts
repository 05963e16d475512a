import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadSharp } from './sharp.js';
import type { FileStore } from './store.js';
import { contentTypeOf, isStorageKey, sha256Hex } from './keys.js';

export interface MigrationReport {
  /** Entries found under DATA_DIR/uploads (each one copied, already there, or skipped). */
  found: number;
  /** Written to the store by this run. */
  copied: number;
  /** Already in the store with the same bytes (an earlier run, or another instance). */
  alreadyThere: number;
  /** Removed from the disk after the store was seen to hold them (--delete-source). */
  deleted: number;
  /** Left alone, with why: not a name this app writes, or not the image its name says. */
  skipped: { file: string; reason: string }[];
}

const IMAGE_FORMAT: Record<string, string> = { 'image/webp': 'webp', 'image/png': 'png', 'image/jpeg': 'jpeg' };

/**
 * Copies the files under DATA_DIR/uploads/<folder>/<name> into `target` under the same key,
 * so the addresses already stored in the database (/uploads/<key>) keep working. Idempotent:
 * a key the store holds with the same bytes is left as it is. Each file is read back from the
 * store (head: same hash) before the disk copy may be deleted.
 */
export async function migrateDiskToStore(
  dataDir: string,
  target: FileStore,
  opts: { deleteSource?: boolean; onFile?: (key: string, outcome: 'copied' | 'already there') => void } = {},
): Promise<MigrationReport> {
  const root = path.resolve(dataDir, 'uploads');
  const report: MigrationReport = { found: 0, copied: 0, alreadyThere: 0, deleted: 0, skipped: [] };
  const folders = await readdir(root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  for (const folder of folders) {
    if (!folder.isDirectory()) {
      report.found++;
      report.skipped.push({ file: folder.name, reason: 'not in a folder' });
      continue;
    }
    for (const entry of await readdir(path.join(root, folder.name), { withFileTypes: true })) {
      const key = `${folder.name}/${entry.name}`;
      report.found++;
      if (!entry.isFile()) {
        report.skipped.push({ file: key, reason: 'not a file' });
        continue;
      }
      if (!isStorageKey(key)) {
        report.skipped.push({ file: key, reason: 'not a name this app writes' });
        continue;
      }
      const file = path.join(root, folder.name, entry.name);
      const body = await readFile(file);
      const contentType = contentTypeOf(key);
      if (IMAGE_FORMAT[contentType] && !(await isImageOf(body, IMAGE_FORMAT[contentType]))) {
        report.skipped.push({ file: key, reason: `not a ${IMAGE_FORMAT[contentType].toUpperCase()} image` });
        continue;
      }
      const sha256 = sha256Hex(body);
      const there = await target.head(key);
      if (there?.sha256 === sha256) {
        report.alreadyThere++;
        opts.onFile?.(key, 'already there');
      } else {
        await target.put(key, body, contentType);
        const stored = await target.head(key);
        if (stored?.sha256 !== sha256) throw new Error(`${key}: the store does not hold the bytes just written`);
        report.copied++;
        opts.onFile?.(key, 'copied');
      }
      if (opts.deleteSource) {
        await rm(file);
        report.deleted++;
      }
    }
  }
  return report;
}

async function isImageOf(body: Buffer, format: string): Promise<boolean> {
  const sharp = await loadSharp();
  try {
    return (await sharp(body).metadata()).format === format;
  } catch {
    return false;
  }
}
