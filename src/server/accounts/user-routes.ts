import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../shared/accounts.js';
import { currentUser, updateProfileBody } from '../../shared/accounts-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { user } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { presentCurrentUser } from './presenters.js';
import { readUpload } from '../http/uploads.js';
import { syncEducatorName } from '../educators/educator-service.js';
import type { Viewer } from './viewer.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 413: errorBody, 500: errorBody };
const params = z.object({ userId: z.uuid('Unknown user') });

/** Only the owner edits a user record. */
function assertOwner(viewer: Viewer, userId: string) {
  if (viewer.user.id !== userId) throw AppError.forbidden('You can only edit your own profile');
}

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  r.patch('/api/users/:userId', {
    schema: { tags, summary: 'Edit your names and city', params, body: updateProfileBody, response: { 200: currentUser, ...errors } },
  }, async (request) => {
    const viewer = await app.requireViewer(request);
    assertOwner(viewer, request.params.userId);
    const { firstName, lastName, city } = request.body;
    const changes: Partial<typeof user.$inferInsert> = { updatedAt: new Date() };
    if (firstName !== undefined) changes.firstName = firstName;
    if (lastName !== undefined) changes.lastName = lastName;
    if (city !== undefined) changes.city = city || null;
    if (firstName !== undefined || lastName !== undefined) {
      changes.name = `${firstName ?? viewer.user.firstName} ${lastName ?? viewer.user.lastName}`.trim();
    }
    try {
      await app.database.db.update(user).set(changes).where(eq(user.id, viewer.user.id));
      if (viewer.educator && changes.name) await syncEducatorName(app, viewer.user.id);
    } catch (err) {
      request.log.error({ err }, 'profile update failed');
      throw new AppError(500, 'update_error', city !== undefined ? MESSAGES.locationError : 'Error updating profile');
    }
    const fresh = await app.resolveViewer(request);
    return presentCurrentUser(fresh!);
  });

  r.post('/api/users/:userId/avatar', {
    schema: {
      tags, summary: 'Upload a profile picture (PNG, JPEG or WebP, at most 5 MB; multipart field "file")',
      consumes: ['multipart/form-data'], params, response: { 200: currentUser, ...errors },
    },
  }, async (request) => {
    const viewer = await app.requireViewer(request);
    assertOwner(viewer, request.params.userId);
    const data = await readUpload(request);
    const url = await app.images.saveAvatar(data);
    await app.database.db.update(user).set({ image: url, updatedAt: new Date() }).where(eq(user.id, viewer.user.id));
    const fresh = await app.resolveViewer(request);
    return presentCurrentUser(fresh!);
  });
}
