import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, updateProfileBody } from '../../shared/accounts-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { user } from '../db/schema/accounts.js';
import { presentCurrentUser } from './presenters.js';
import { readUpload } from '../http/uploads.js';
import { assertOwner, updateProfile } from './update-profile.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 413: errorBody, 500: errorBody };
const params = z.object({ userId: z.uuid('Unknown user') });

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  r.patch(
    '/api/users/:userId',
    {
      schema: {
        tags,
        summary: 'Edit your names, city and time zone',
        params,
        body: updateProfileBody,
        response: { 200: currentUser, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      await updateProfile(app, viewer, request.params.userId, request.body);
      const fresh = await app.resolveViewer(request);
      return presentCurrentUser(fresh!);
    },
  );

  r.post(
    '/api/users/:userId/avatar',
    {
      schema: {
        tags,
        summary: 'Upload a profile picture (PNG, JPEG or WebP, at most 5 MB; multipart field "file")',
        consumes: ['multipart/form-data'],
        params,
        response: { 200: currentUser, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      assertOwner(viewer, request.params.userId);
      const data = await readUpload(request);
      const url = await app.images.saveAvatar(data);
      await app.database.db.update(user).set({ image: url, updatedAt: new Date() }).where(eq(user.id, viewer.user.id));
      const fresh = await app.resolveViewer(request);
      return presentCurrentUser(fresh!);
    },
  );
}
