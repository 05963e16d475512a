import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { CLASSROOM_FILE_KINDS, CLASSROOM_FILE_MAX_BYTES, type UploadedFile } from '../../shared/classroom-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { classroomFile } from '../db/schema/classroom.js';
import { AppError } from '../http/errors.js';
import { classroomFor, taughtClassroom } from './access.js';
import { claimedKind, detectKind } from './file-kinds.js';

const MAX_MB = CLASSROOM_FILE_MAX_BYTES / 1024 / 1024;
const TAKEN = 'a PDF, an image (PNG, JPEG, WebP, GIF) or slides (.pptx, .odp, .key)';

/** The one file of a multipart upload (field "file") and its name, at most CLASSROOM_FILE_MAX_BYTES. */
export async function readMaterial(request: FastifyRequest): Promise<{ data: Buffer; fileName: string }> {
  if (!request.isMultipart())
    throw AppError.badRequest('Send the file as multipart/form-data in a field named "file"', { file: 'missing' });
  const file = await request.file({ limits: { fileSize: CLASSROOM_FILE_MAX_BYTES, files: 1 } }).catch(() => {
    throw AppError.badRequest('The upload could not be read: send the file as multipart/form-data in a field named "file"', {
      file: 'unreadable',
    });
  });
  if (!file) throw AppError.badRequest('Choose a file to upload', { file: 'missing' });
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch {
    throw new AppError(413, 'too_large', `The file is larger than ${MAX_MB} MB`, { fields: { file: 'too large' } });
  }
  return { data, fileName: file.filename ?? '' };
}

/** A file name to show and offer: no path, no control characters, at most 120 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '').trim();
  return clean.slice(-120) || 'file';
}

/**
 * The educator uploads a material (before the post that carries it): it must be what its name
 * says, found from its content (a .pdf that is not a PDF is refused), and one of the kinds a
 * classroom takes. Stored in the file store (any instance serves it) under a private key,
 * served only through `downloadFile` after the access check.
 */
export async function uploadFile(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  upload: { data: Buffer; fileName: string },
): Promise<UploadedFile> {
  const db = app.database.db;
  await taughtClassroom(db, courseId, sessionId, viewer);
  const name = cleanFileName(upload.fileName);
  const claimed = claimedKind(name);
  if (!claimed) throw AppError.badRequest(`A classroom file must be ${TAKEN}`, { file: 'unsupported type' });
  if (upload.data.length === 0) throw AppError.badRequest('The file is empty', { file: 'empty' });
  const found = detectKind(upload.data);
  if (found !== claimed) {
    const claimedLabel = CLASSROOM_FILE_KINDS[claimed].label;
    throw new AppError(400, 'file_type_mismatch', `This file is not a ${claimedLabel}: its content does not match its name`, {
      fields: { file: found ? `content is a ${CLASSROOM_FILE_KINDS[found].label}` : `content is not a ${claimedLabel}` },
    });
  }
  const kind = CLASSROOM_FILE_KINDS[found];
  const key = `classroom/${randomUUID()}.${kind.extensions[0]}`;
  await app.files.put(key, upload.data, kind.contentType);
  const [row] = await db
    .insert(classroomFile)
    .values({ sessionId, uploaderId: viewer.user.id, storageKey: key, name, contentType: kind.contentType, size: upload.data.length })
    .returning({ id: classroomFile.id });
  return { id: row.id, name, contentType: kind.contentType, size: upload.data.length };
}

/**
 * A material's bytes, for the classroom's members (others: 404). A file not yet posted is
 * its uploader's only.
 */
export async function downloadFile(app: AppServices, viewer: Viewer, courseId: string, sessionId: string, fileId: string) {
  const db = app.database.db;
  await classroomFor(db, courseId, sessionId, viewer);
  const [f] = await db
    .select()
    .from(classroomFile)
    .where(
      and(
        eq(classroomFile.id, fileId),
        eq(classroomFile.sessionId, sessionId),
        or(isNotNull(classroomFile.postId), eq(classroomFile.uploaderId, viewer.user.id)),
      ),
    )
    .limit(1);
  if (!f) throw AppError.notFound('This file does not exist');
  const stored = await app.files.get(f.storageKey);
  if (!stored) throw AppError.notFound('This file does not exist');
  return { body: stored.body, name: f.name, contentType: f.contentType, sha256: stored.sha256 };
}
