/**
 * The file store's contract, the same for its three backends (disk, PostgreSQL, S3 against a
 * real S3-compatible server), through the store and through the /uploads/ route of an app
 * configured for it: put, get, head with a strong ETag, delete, a missing key, 304 and
 * immutable caching.
 */
import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { startS3Server, type S3Server } from '../../support/s3-server.js';
import { uniquePng, uploadAvatar } from '../../support/uploads.js';

const BACKENDS = ['disk', 'postgres', 's3'] as const;
type Backend = (typeof BACKENDS)[number];

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

/** The environment that selects a backend; PostgreSQL is what DATABASE_URL alone gives. */
function envFor(backend: Backend): Record<string, string> {
  if (backend === 's3') return s3.env;
  if (backend === 'postgres') return inject('databaseUrl') ? {} : { STORAGE_BACKEND: 'postgres' };
  return { STORAGE_BACKEND: 'disk' };
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const key = (folder = 'covers') => `${folder}/${randomUUID()}.webp`;

describe.each(BACKENDS)('the %s store', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp(envFor(backend));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is the one the configuration selects, and answers', async () => {
    expect(app.files.backend).toBe(backend);
    expect(await app.files.ping()).toBe(true);
  });

  it('put, then get and head answer the bytes, their SHA-256 and type; delete removes them', async () => {
    const k = key();
    const body = Buffer.from(`bytes of ${k}`);
    expect(await app.files.head(k)).toBeNull();
    expect(await app.files.get(k)).toBeNull();

    const put = await app.files.put(k, body, 'image/webp');
    expect(put).toEqual({ sha256: sha256(body), contentType: 'image/webp', size: body.length });
    const got = await app.files.get(k);
    expect(got && Buffer.compare(got.body, body)).toBe(0);
    expect(got).toMatchObject({ sha256: sha256(body), contentType: 'image/webp', size: body.length });
    expect(await app.files.head(k)).toEqual({ sha256: sha256(body), contentType: 'image/webp', size: body.length });

    // The same bytes again change nothing; other bytes under the key replace them.
    await app.files.put(k, body, 'image/webp');
    expect((await app.files.get(k))?.body.toString()).toBe(body.toString());
    const other = Buffer.from('other bytes');
    await app.files.put(k, other, 'image/webp');
    expect(await app.files.head(k)).toMatchObject({ sha256: sha256(other), size: other.length });

    await app.files.delete(k);
    expect(await app.files.get(k)).toBeNull();
    expect(await app.files.head(k)).toBeNull();
    await expect(app.files.delete(k)).resolves.toBeUndefined();
  });

  it('refuses a key the server would not make (a path, a traversal, an unknown type)', async () => {
    for (const bad of [
      '../etc/passwd',
      'covers/../../x.webp',
      'covers/a/b.webp',
      '/covers/abcdefgh.webp',
      'covers/abcdefgh.exe',
      'COVERS/abcdefgh.webp',
    ]) {
      await expect(app.files.put(bad, Buffer.from('x'), 'image/webp'), bad).rejects.toThrow(/not a storage key/);
      await expect(app.files.get(bad), bad).rejects.toThrow(/not a storage key/);
    }
  });

  it('an uploaded avatar is served with a strong ETag (its SHA-256), immutable caching, 304 and HEAD', async () => {
    const user = await createSignedInUser(app);
    const url = await uploadAvatar(app, user, await uniquePng());
    expect(url).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);

    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(`"${sha256(res.rawPayload)}"`);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    // The key is the content's hash: what is served is what the name promises.
    expect(url).toContain(sha256(res.rawPayload).slice(0, 32));
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const etag = res.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': header } });
      expect(again.statusCode, header).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const stale = await app.inject({ method: 'GET', url, headers: { 'if-none-match': '"0000"' } });
    expect(stale.statusCode).toBe(200);
    expect(Buffer.compare(stale.rawPayload, res.rawPayload)).toBe(0);

    const head = await app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('a key with no file, or not of the server’s shape, answers 404 (never 500, never a path)', async () => {
    const missing = await app.inject({ method: 'GET', url: `/uploads/${key('avatars')}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect(missing.headers['cache-control']).toBe('no-cache');
    const missingConditional = await app.inject({ method: 'GET', url: `/uploads/${key()}`, headers: { 'if-none-match': '*' } });
    expect(missingConditional.statusCode).toBe(404);
    expect((await app.inject({ method: 'HEAD', url: `/uploads/${key()}` })).statusCode).toBe(404);
    for (const url of [
      '/uploads/avatars/..%2f..%2fpg%2fPG_VERSION',
      '/uploads/..%2F..%2Fetc/passwd',
      '/uploads/avatars/x.webp',
      '/uploads/avatars/abcdefgh.html',
      '/uploads/avatars/abcdefgh.webp%00.png',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect([400, 404], url).toContain(res.statusCode);
    }
  });
});
