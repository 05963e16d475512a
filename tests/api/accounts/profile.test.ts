import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, patch, randomIp } from '../../support/http.js';
import { fileForm } from '../../support/multipart.js';

const ctx = useTestApp();

async function png(width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } })
    .png()
    .toBuffer();
}

async function uploadAvatar(userId: string, cookie: string | undefined, file: { data: Buffer; filename: string; type: string }) {
  const form = await fileForm(file);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/users/${userId}/avatar`,
    payload: form.payload,
    headers: { ...form.headers, origin: ctx.app.config.publicUrl, ...(cookie ? { cookie } : {}) },
    remoteAddress: randomIp(),
  });
}

describe('editing the profile', () => {
  it('PATCH /api/users/:id edits names and city (trimmed) and answers the updated user', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await patch(
      ctx.app,
      `/api/users/${user.id}`,
      { firstName: ' Augusta ', lastName: 'King ', city: ' London ' },
      { cookie: user.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, firstName: 'Augusta', lastName: 'King', city: 'London' });
    const me = (await get(ctx.app, '/api/me', { cookie: user.cookie })).json();
    expect(me).toMatchObject({ firstName: 'Augusta', lastName: 'King', city: 'London' });
  });

  it('changes only the fields sent, and an empty city clears it', async () => {
    const user = await createSignedInUser(ctx.app);
    await patch(ctx.app, `/api/users/${user.id}`, { city: 'Paris' }, { cookie: user.cookie });
    const res = await patch(ctx.app, `/api/users/${user.id}`, { city: '' }, { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', city: null });
  });

  it("another user's id answers 403 and changes nothing", async () => {
    const me = await createSignedInUser(ctx.app);
    const other = await createSignedInUser(ctx.app);
    const res = await patch(ctx.app, `/api/users/${other.id}`, { firstName: 'Mallory' }, { cookie: me.cookie });
    expect(res.statusCode).toBe(403);
    expect((await get(ctx.app, '/api/me', { cookie: other.cookie })).json().firstName).toBe('Ada');
    expect((await get(ctx.app, '/api/me', { cookie: me.cookie })).json().firstName).toBe('Ada');
  });

  it('an id that is not a uuid answers 400', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await patch(ctx.app, '/api/users/12345', { firstName: 'X' }, { cookie: user.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('userId');
  });

  it('an empty first name answers 400 naming the field', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await patch(ctx.app, `/api/users/${user.id}`, { firstName: '   ' }, { cookie: user.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('firstName');
    expect(res.json().error.fields.firstName).toMatch(/required/i);
  });

  it('an empty body answers 400 and a city that is too long answers 400 naming city', async () => {
    const user = await createSignedInUser(ctx.app);
    expect((await patch(ctx.app, `/api/users/${user.id}`, {}, { cookie: user.cookie })).statusCode).toBe(400);
    const long = await patch(ctx.app, `/api/users/${user.id}`, { city: 'x'.repeat(200) }, { cookie: user.cookie });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields).toHaveProperty('city');
  });

  it('without a session answers 401', async () => {
    const res = await patch(ctx.app, `/api/users/${randomUUID()}`, { firstName: 'X' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the profile picture', () => {
  it('a PNG is resized, stored as WebP under /uploads/avatars/<content hash> and served', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await uploadAvatar(user.id, user.cookie, { data: await png(), filename: 'me.png', type: 'image/png' });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().profileImage;
    expect(url).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().profileImage).toBe(url);

    const served = await get(ctx.app, url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([256, 256]);
  });

  it('JPEG and WebP are accepted too, whatever the file is called', async () => {
    const user = await createSignedInUser(ctx.app);
    const jpeg = await sharp(await png(300, 300))
      .jpeg()
      .toBuffer();
    const webp = await sharp(await png(300, 300))
      .webp()
      .toBuffer();
    const a = await uploadAvatar(user.id, user.cookie, { data: jpeg, filename: 'photo.bin', type: 'application/octet-stream' });
    expect(a.statusCode, a.body).toBe(200);
    const b = await uploadAvatar(user.id, user.cookie, { data: webp, filename: 'photo.webp', type: 'image/webp' });
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json().profileImage).not.toBe(a.json().profileImage);
  });

  it('a text file named .png answers 400 with a clear message and keeps the old picture', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await uploadAvatar(user.id, user.cookie, {
      data: Buffer.from('definitely not an image\n'.repeat(20)),
      filename: 'evil.png',
      type: 'image/png',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('The picture must be a PNG, JPEG or WebP image');
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().profileImage).toBe('/default-avatar.svg');
  });

  it('an image in another format (GIF) answers 400', async () => {
    const user = await createSignedInUser(ctx.app);
    const gif = await sharp(await png(50, 50))
      .gif()
      .toBuffer();
    const res = await uploadAvatar(user.id, user.cookie, { data: gif, filename: 'anim.gif', type: 'image/gif' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/PNG, JPEG or WebP/);
  });

  it('a file over 5 MB is refused with a clear message', async () => {
    const user = await createSignedInUser(ctx.app);
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 1024, 1)]);
    const res = await uploadAvatar(user.id, user.cookie, { data: big, filename: 'huge.png', type: 'image/png' });
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json().error.message).toMatch(/5 MB|too large/i);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().profileImage).toBe('/default-avatar.svg');
  });

  it("another user's id answers 403", async () => {
    const me = await createSignedInUser(ctx.app);
    const other = await createSignedInUser(ctx.app);
    const res = await uploadAvatar(other.id, me.cookie, { data: await png(), filename: 'me.png', type: 'image/png' });
    expect(res.statusCode).toBe(403);
    expect((await get(ctx.app, '/api/me', { cookie: other.cookie })).json().profileImage).toBe('/default-avatar.svg');
  });

  it('a request without a file answers 400, without a session 401', async () => {
    const user = await createSignedInUser(ctx.app);
    const notMultipart = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/avatar`,
      payload: { file: 'x' },
      headers: { origin: ctx.app.config.publicUrl, cookie: user.cookie },
    });
    expect(notMultipart.statusCode).toBe(400);
    const anonymous = await uploadAvatar(user.id, undefined, { data: await png(), filename: 'me.png', type: 'image/png' });
    expect(anonymous.statusCode).toBe(401);
  });
});
