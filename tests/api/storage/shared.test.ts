/**
 * Files in shared storage (issue 24 item 1): an upload through one app instance is served by
 * another that shares the database (PostgreSQL store) or the bucket (S3 store, a real
 * S3-compatible server), each instance with its own DATA_DIR as on separate machines. The
 * disk store serves only the instance that wrote the file (the README says: one instance, or
 * a shared mount). A store that does not answer gives 503, never 500.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { startS3Server, type S3Server } from '../../support/s3-server.js';
import { uniquePng, uploadAvatar } from '../../support/uploads.js';

let s3: S3Server;
const apps: TestApp[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await s3?.close();
});

/** An instance of its own: its own DATA_DIR and (on PostgreSQL) its own pool on the shared database. */
async function instance(env: Record<string, string>): Promise<TestApp> {
  const app = await buildTestApp(env);
  apps.push(app);
  return app;
}

async function uploadThroughFirst(first: TestApp) {
  const user = await createSignedInUser(first);
  const url = await uploadAvatar(first, user, await uniquePng());
  const there = await first.inject({ method: 'GET', url });
  expect(there.statusCode).toBe(200);
  return { url, bytes: there.rawPayload, etag: there.headers.etag };
}

describe('two instances', () => {
  it('sharing the database (PostgreSQL store): an avatar uploaded through one is served by the other', async () => {
    const env: Record<string, string> = inject('databaseUrl') ? {} : { STORAGE_BACKEND: 'postgres' };
    const [one, two] = [await instance(env), await instance(env)];
    expect([one.files.backend, two.files.backend]).toEqual(['postgres', 'postgres']);
    expect(one.config.dataDir).not.toBe(two.config.dataDir);
    const { url, bytes, etag } = await uploadThroughFirst(one);
    const other = await two.inject({ method: 'GET', url });
    expect(other.statusCode).toBe(200);
    expect(Buffer.compare(other.rawPayload, bytes)).toBe(0);
    expect(other.headers.etag).toBe(etag);
    expect((await two.inject({ method: 'GET', url, headers: { 'if-none-match': etag as string } })).statusCode).toBe(304);
  });

  it('sharing the bucket (S3 store): an avatar uploaded through one is served by the other', async () => {
    const [one, two] = [await instance(s3.env), await instance(s3.env)];
    expect([one.files.backend, two.files.backend]).toEqual(['s3', 's3']);
    const { url, bytes, etag } = await uploadThroughFirst(one);
    const other = await two.inject({ method: 'GET', url });
    expect(other.statusCode).toBe(200);
    expect(Buffer.compare(other.rawPayload, bytes)).toBe(0);
    expect(other.headers.etag).toBe(etag);
  });

  it('each on its own disk (disk store): the other instance does not have the file', async () => {
    const [one, two] = [await instance({ STORAGE_BACKEND: 'disk' }), await instance({ STORAGE_BACKEND: 'disk' })];
    const { url } = await uploadThroughFirst(one);
    expect((await two.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('sharing one DATA_DIR (disk store on a shared mount): the other instance serves it', async () => {
    const one = await instance({ STORAGE_BACKEND: 'disk' });
    const two = await instance({ STORAGE_BACKEND: 'disk', DATA_DIR: one.config.dataDir });
    const { url, bytes } = await uploadThroughFirst(one);
    const other = await two.inject({ method: 'GET', url });
    expect(other.statusCode).toBe(200);
    expect(Buffer.compare(other.rawPayload, bytes)).toBe(0);
  });
});

describe('with S3_PUBLIC_BASE_URL (a CDN before the bucket)', () => {
  it('/uploads/<key> redirects there for good, and the page policy allows images from it', async () => {
    const app = await instance({ ...s3.env, S3_PUBLIC_BASE_URL: 'https://cdn.example.test/agora/' });
    const user = await createSignedInUser(app);
    const url = await uploadAvatar(app, user, await uniquePng());
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`https://cdn.example.test/agora/${url.slice('/uploads/'.length)}`);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toMatch(/img-src [^;]*https:\/\/cdn\.example\.test/);
    // The object is in the bucket (the CDN's origin) with the caching the CDN passes on
    // (s3rver, unlike AWS, lets an unsigned request read it).
    const direct = await fetch(`${s3.endpoint}/${s3.bucket}/${url.slice('/uploads/'.length)}`);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toBe('image/webp');
    expect(direct.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('a store that does not answer', () => {
  it('S3 unreachable: ping says so; serving and uploading answer 503 storage_unavailable, never 500', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const app = await instance({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${closedPort}` });
    expect(await app.files.ping()).toBe(false);
    const served = await app.inject({ method: 'GET', url: '/uploads/avatars/0123456789abcdef0123456789abcdef.webp' });
    expect(served.statusCode).toBe(503);
    expect(served.json().error.code).toBe('storage_unavailable');
    expect(served.headers['retry-after']).toBe('5');
    const user = await createSignedInUser(app);
    await expect(uploadAvatar(app, user, await uniquePng())).rejects.toThrow(/answered 503.*storage_unavailable/);
  });

  it('a bucket that does not exist: ping says so, and an upload answers 503, never 500', async () => {
    const app = await instance({ ...s3.env, S3_BUCKET: 'agora-no-such-bucket' });
    expect(await app.files.ping()).toBe(false);
    const served = await app.inject({ method: 'GET', url: '/uploads/avatars/0123456789abcdef0123456789abcdef.webp' });
    expect(served.statusCode).toBe(503);
    const user = await createSignedInUser(app);
    await expect(uploadAvatar(app, user, await uniquePng())).rejects.toThrow(/answered 503.*storage_unavailable/);
  });
});
