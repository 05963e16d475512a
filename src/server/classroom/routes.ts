import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessInput,
  classroomQuery,
  classroomView,
  type ClassroomView,
  createdAnswer,
  hideInput,
  okAnswer,
  postInput,
  postUpdate,
  replyInput,
  reportInput,
  uploadedFile,
} from '../../shared/classroom-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { downloadFile, readMaterial, uploadFile } from './files.js';
import { setAccess } from './members.js';
import { addReply, createPost, deletePost, hideReply, reportPost, updatePost } from './posts.js';
import { classroomPageJson } from './view.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const base = '/api/courses/:courseId/sessions/:sessionId/classroom';
const params = z.object({ courseId: z.uuid('Unknown course'), sessionId: z.uuid('Unknown session') });
const postParams = params.extend({ postId: z.uuid('Unknown post') });
const replyParams = params.extend({ replyId: z.uuid('Unknown reply') });
const fileParams = params.extend({ fileId: z.uuid('Unknown file') });
const memberParams = params.extend({ userId: z.uuid('Unknown learner') });

/**
 * The classroom of a course session (docs/decisions/0072-classroom.md): thin routes, one use
 * case each. Only the course's educator and the session's active learners with access get
 * anything but a 404 (classroom/access.ts, on every request).
 */
export async function classroomRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['classroom'];

  r.get(
    base,
    {
      schema: {
        tags,
        summary: "A session's classroom: next class, posts (pinned first) with files and replies (educator and enrolled learners)",
        params,
        querystring: classroomQuery,
        response: { 200: classroomView, ...errors },
      },
    },
    async (request, reply) => {
      // The JSON comes from PostgreSQL with the viewer in the same statement (view.ts) and is sent as it is.
      const { courseId, sessionId } = request.params;
      const json = await classroomPageJson(app, (load) => app.requireViewerWith(request, load), courseId, sessionId, request.query.before);
      return reply
        .header('cache-control', 'private, no-store')
        .type('application/json; charset=utf-8')
        .send(json as unknown as ClassroomView);
    },
  );

  r.post(
    `${base}/files`,
    {
      schema: {
        tags,
        summary: 'Upload a material (PDF, PNG/JPEG/WebP/GIF, .pptx/.odp/.key; at most 20 MB; multipart field "file"), then post it',
        consumes: ['multipart/form-data'],
        params,
        response: { 201: uploadedFile, 413: errorBody, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId } = request.params;
      const file = await uploadFile(app, viewer, courseId, sessionId, await readMaterial(request));
      return reply.status(201).send(file);
    },
  );

  r.get(
    `${base}/files/:fileId`,
    { schema: { tags, summary: 'Download a material (members only; the file itself)', params: fileParams } },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, fileId } = request.params;
      const f = await downloadFile(app, viewer, courseId, sessionId, fileId);
      const inline = f.contentType === 'application/pdf' || f.contentType.startsWith('image/');
      return reply
        .type(f.contentType)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename="${f.name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
        )
        .send(f.body);
    },
  );

  r.post(
    `${base}/posts`,
    {
      schema: {
        tags,
        summary: 'Post to the classroom (the educator)',
        params,
        body: postInput,
        response: { 201: createdAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId } = request.params;
      const id = await createPost(app, viewer, courseId, sessionId, request.body);
      return reply.status(201).send({ id });
    },
  );

  r.patch(
    `${base}/posts/:postId`,
    {
      schema: {
        tags,
        summary: "Change a post's text, pin or unpin it (the educator)",
        params: postParams,
        body: postUpdate,
        response: { 200: okAnswer, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, postId } = request.params;
      const { body, pinned } = request.body;
      await updatePost(app, viewer, courseId, sessionId, postId, request.body);
      return { ok: true as const, message: body !== undefined ? 'The post is changed' : pinned ? 'Pinned' : 'Unpinned' };
    },
  );

  r.delete(
    `${base}/posts/:postId`,
    {
      schema: {
        tags,
        summary: 'Delete a post with its replies, reports and files (the educator)',
        params: postParams,
        response: { 200: okAnswer, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, postId } = request.params;
      await deletePost(app, viewer, courseId, sessionId, postId);
      return { ok: true as const, message: 'The post is deleted' };
    },
  );

  r.post(
    `${base}/posts/:postId/replies`,
    {
      schema: {
        tags,
        summary: 'Reply under a post (members)',
        params: postParams,
        body: replyInput,
        response: { 201: createdAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, postId } = request.params;
      const id = await addReply(app, viewer, courseId, sessionId, postId, request.body);
      return reply.status(201).send({ id });
    },
  );

  r.post(
    `${base}/posts/:postId/report`,
    { schema: { tags, summary: 'Report a post (members)', params: postParams, body: reportInput, response: { 200: okAnswer, ...errors } } },
    async (request) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, postId } = request.params;
      await reportPost(app, viewer, courseId, sessionId, postId, request.body);
      return { ok: true as const, message: 'Thank you: the educator will look at this post' };
    },
  );

  r.post(
    `${base}/replies/:replyId/hide`,
    {
      schema: {
        tags,
        summary: 'Hide a reply from learners, or show it again (the educator)',
        params: replyParams,
        body: hideInput,
        response: { 200: okAnswer, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, replyId } = request.params;
      await hideReply(app, viewer, courseId, sessionId, replyId, request.body);
      return { ok: true as const, message: request.body.hidden ? 'The reply is hidden from learners' : 'The reply is shown again' };
    },
  );

  r.put(
    `${base}/access/:userId`,
    {
      schema: {
        tags,
        summary: "Remove an enrolled learner's access to the classroom, or give it back (the educator)",
        params: memberParams,
        body: accessInput,
        response: { 200: okAnswer, ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      const { courseId, sessionId, userId } = request.params;
      const message = await setAccess(app, viewer, courseId, sessionId, userId, request.body.access);
      return { ok: true as const, message };
    },
  );
}
