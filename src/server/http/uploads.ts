import type { FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES } from '../../shared/accounts.js';
import { AppError } from './errors.js';

/** Reads the one file of a multipart upload (field "file"), with clear errors. */
export async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart())
    throw AppError.badRequest('Send the picture as multipart/form-data in a field named "file"', { file: 'missing' });
  const file = await request.file().catch(() => {
    // A body that does not follow its own multipart boundary is the client's error.
    throw AppError.badRequest('The upload could not be read: send the picture as multipart/form-data in a field named "file"', {
      file: 'unreadable',
    });
  });
  if (!file) throw AppError.badRequest('Choose a picture to upload', { file: 'missing' });
  try {
    return await file.toBuffer();
  } catch {
    throw new AppError(413, 'too_large', `The picture is larger than ${AVATAR_MAX_BYTES / 1024 / 1024} MB`, {
      fields: { file: 'too large' },
    });
  }
}
