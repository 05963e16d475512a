import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../http/errors.js';

const ACCEPTED = new Set(['png', 'jpeg', 'webp']);

/**
 * Stores user images on local disk under DATA_DIR/uploads, served at /uploads/.
 * The content decides what a file is (never its name or declared type); every image is
 * decoded, resized and re-encoded to WebP, which also drops metadata such as GPS.
 */
export function createImageStore(dataDir: string) {
  const root = path.resolve(dataDir, 'uploads');
  for (const dir of ['avatars', 'covers', 'educators']) mkdirSync(path.join(root, dir), { recursive: true });
  return {
    root,
    saveAvatar: (input: Buffer) => saveImage(input, 'avatars', 256, 256),
    saveEducatorPhoto: (input: Buffer) => saveImage(input, 'educators', 512, 512),
    saveCover: (input: Buffer) => saveImage(input, 'covers', 1200, 675),
  };

  async function saveImage(input: Buffer, folder: string, width: number, height: number): Promise<string> {
    let format: string | undefined;
    try {
      format = (await sharp(input).metadata()).format;
    } catch {
      format = undefined;
    }
    if (!format || !ACCEPTED.has(format)) {
      throw new AppError(400, 'unsupported_image', 'The picture must be a PNG, JPEG or WebP image', {
        fields: { file: 'not a PNG, JPEG or WebP image' },
      });
    }
    let out: Buffer;
    try {
      out = await sharp(input, { limitInputPixels: 50_000_000 })
        .rotate()
        .resize(width, height, { fit: 'cover', position: 'attention' })
        .webp({ quality: 82 })
        .toBuffer();
    } catch {
      throw new AppError(400, 'unsupported_image', 'This image could not be read. Try another file.', {
        fields: { file: 'unreadable image' },
      });
    }
    const name = `${randomUUID()}.webp`;
    await writeFile(path.join(root, folder, name), out);
    return `/uploads/${folder}/${name}`;
  }
}

export type ImageStore = ReturnType<typeof createImageStore>;
