import { loadSharp } from './sharp.js';
import { AppError } from '../http/errors.js';
import type { FileStore } from './store.js';
import { contentKey, uploadPath } from './keys.js';

const ACCEPTED = new Set(['png', 'jpeg', 'webp']);

/**
 * User images, kept in the configured file store (file-store.ts) and served at
 * /uploads/<key> (serve.ts). The content decides what a file is (never its name or declared
 * type); every image is decoded, resized and re-encoded to WebP, which also drops metadata
 * such as GPS. Its key is the hash of the WebP (keys.ts): the same picture twice is one file.
 */
export function createImageStore(files: FileStore) {
  return {
    saveAvatar: (input: Buffer) => saveImage(input, 'avatars', 256, 256),
    saveEducatorPhoto: (input: Buffer) => saveImage(input, 'educators', 512, 512),
    saveCover: (input: Buffer) => saveImage(input, 'covers', 1200, 675),
  };

  async function saveImage(input: Buffer, folder: string, width: number, height: number): Promise<string> {
    const sharp = await loadSharp();
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
    const key = contentKey(folder, out, 'webp');
    await files.put(key, out, 'image/webp');
    return uploadPath(key);
  }
}

export type ImageStore = ReturnType<typeof createImageStore>;
