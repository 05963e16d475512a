import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import type { TestApp } from './app.js';
import type { SignedInUser } from './factories.js';
import { randomIp } from './http.js';
import { fileForm } from './multipart.js';

/**
 * A PNG no other test makes: random colours, so its stored WebP (and so its content-addressed
 * key) is this test's own. A file served later was stored by this test, not by another.
 */
export async function uniquePng(width = 320, height = 320): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  const [r, g, b] = [randomInt(256), randomInt(256), randomInt(256)];
  for (let i = 0; i < pixels.length; i += 3) {
    pixels[i] = r;
    pixels[i + 1] = (g + ((i / 3) % width)) & 255;
    pixels[i + 2] = (b + Math.floor(i / 3 / width)) & 255;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Uploads `data` as the user's profile picture; answers its /uploads/ address. */
export async function uploadAvatar(app: TestApp, user: SignedInUser, data: Buffer): Promise<string> {
  const form = await fileForm({ data, filename: 'me.png', type: 'image/png' });
  const res = await app.inject({
    method: 'POST',
    url: `/api/users/${user.id}/avatar`,
    payload: form.payload,
    headers: { ...form.headers, origin: app.config.publicUrl, cookie: user.cookie },
    remoteAddress: randomIp(),
  });
  if (res.statusCode !== 200) throw new Error(`avatar upload answered ${res.statusCode}: ${res.body}`);
  return res.json().profileImage as string;
}
