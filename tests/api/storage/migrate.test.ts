/**
 * `npm run storage:migrate`: the files an instance kept on its disk (DATA_DIR/uploads) are
 * copied into the configured store under the same keys, so the addresses already stored in
 * the database keep working; a second run copies nothing; files that are not this app's are
 * left alone and counted.
 */
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, tempDir, type TestApp } from '../../support/app.js';
import { startS3Server, type S3Server } from '../../support/s3-server.js';
import { uniquePng } from '../../support/uploads.js';
import { migrateDiskToStore } from '../../../src/server/storage/migrate.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

/** A DATA_DIR as an instance of the disk store left it (UUID names, as before content keys), plus strays. */
async function legacyDataDir() {
  const dataDir = tempDir('legacy-');
  const files: { key: string; bytes: Buffer }[] = [];
  for (const folder of ['avatars', 'covers', 'educators']) {
    const bytes = await sharp(await uniquePng(64, 64))
      .webp()
      .toBuffer();
    const key = `${folder}/${randomUUID()}.webp`;
    mkdirSync(path.join(dataDir, 'uploads', folder), { recursive: true });
    writeFileSync(path.join(dataDir, 'uploads', key), bytes);
    files.push({ key, bytes });
  }
  writeFileSync(path.join(dataDir, 'uploads', 'avatars', 'notes.txt'), 'not an upload');
  writeFileSync(path.join(dataDir, 'uploads', 'covers', `${randomUUID()}.webp`), 'text pretending to be a picture');
  writeFileSync(path.join(dataDir, 'uploads', 'stray.webp'), 'outside any folder');
  return { dataDir, files };
}

describe.each(['postgres', 's3'] as const)('into the %s store', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp(backend === 's3' ? s3.env : { STORAGE_BACKEND: 'postgres' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('copies every upload under its key, serves it, and a second run copies nothing', async () => {
    const { dataDir, files } = await legacyDataDir();
    for (const f of files) expect((await app.inject({ method: 'GET', url: `/uploads/${f.key}` })).statusCode).toBe(404);

    const first = await migrateDiskToStore(dataDir, app.files);
    expect(first).toMatchObject({ found: 6, copied: 3, alreadyThere: 0, deleted: 0 });
    expect(first.skipped.map((s) => s.reason).sort()).toEqual(['not a WEBP image', 'not a name this app writes', 'not in a folder']);
    for (const f of files) {
      const res = await app.inject({ method: 'GET', url: `/uploads/${f.key}` });
      expect(res.statusCode, f.key).toBe(200);
      expect(Buffer.compare(res.rawPayload, f.bytes)).toBe(0);
      expect(res.headers.etag).toBe(`"${sha256(f.bytes)}"`);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }

    const again = await migrateDiskToStore(dataDir, app.files);
    expect(again).toMatchObject({ found: 6, copied: 0, alreadyThere: 3, deleted: 0 });

    const moved = await migrateDiskToStore(dataDir, app.files, { deleteSource: true });
    expect(moved).toMatchObject({ copied: 0, alreadyThere: 3, deleted: 3 });
    for (const f of files) {
      expect(existsSync(path.join(dataDir, 'uploads', f.key))).toBe(false);
      expect((await app.inject({ method: 'GET', url: `/uploads/${f.key}` })).statusCode).toBe(200);
    }
    // What was not the app's stays on the disk.
    expect(existsSync(path.join(dataDir, 'uploads', 'avatars', 'notes.txt'))).toBe(true);
  });

  it('a DATA_DIR with no uploads folder moves nothing', async () => {
    expect(await migrateDiskToStore(tempDir('empty-'), app.files)).toEqual({
      found: 0,
      copied: 0,
      alreadyThere: 0,
      deleted: 0,
      skipped: [],
    });
  });
});

function runCommand(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/storage-migrate.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the command', () => {
  it.skipIf(!inject('databaseUrl'))('npm run storage:migrate copies a DATA_DIR into the bucket and reports the counts', async () => {
    const { dataDir, files } = await legacyDataDir();
    const env = { DATABASE_URL: inject('databaseUrl')!, DATA_DIR: dataDir, ...s3.env };
    const first = await runCommand(env);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('storage:migrate to s3: 6 found, 3 copied, 0 already there, 3 skipped, 0 deleted from disk');

    const app = await buildTestApp(s3.env);
    try {
      for (const f of files) expect((await app.inject({ method: 'GET', url: `/uploads/${f.key}` })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
