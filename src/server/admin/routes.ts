import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminClubDetail,
  adminDeleteClubInput,
  adminMe,
  clubList,
  clubListQuery,
  adminUserDetail,
  auditLog,
  auditQuery,
  deleteUserInput,
  failedJobs,
  inviteInput,
  inviteResult,
  messageReports,
  classroomReports,
  okResult,
  optionalReasonInput,
  reasonInput,
  refundsDue,
  roleInput,
  userList,
  userListQuery,
} from '../../shared/admin-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { contactMessageList, contactMessageQuery } from '../../shared/contact-schemas.js';
import { listContactMessages } from '../contact/list-messages.js';
import { listFailedJobs, listRefundsDue, readAuditLog, retryJob } from './operations.js';
import { isAdmin, requireAdmin } from './require-admin.js';
import { platformPromoCodeInput, promoCodeList, promoCodeParams, promoCodeView } from '../../shared/promo-codes.js';
import { createPlatformPromoCode, endPlatformPromoCode, listPlatformCodes } from './promo-codes.js';
import { listClassroomReports, listMessageReports } from './message-reports.js';
import { clubDetail, deleteClub, listClubs } from './clubs.js';
import {
  banUser,
  deleteUser,
  inviteUser,
  listUsers,
  promoteConfiguredAdmins,
  resetTwoFactor,
  setRole,
  unbanUser,
  userDetail,
} from './users.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 500: errorBody };
const userParams = z.object({ userId: z.uuid('Unknown user') });
const jobParams = z.object({ jobId: z.uuid('Unknown job') });
const clubParams = z.object({ clubId: z.uuid('Unknown club') });
const ok = { ok: true as const };

/** /api/admin/*: the admin console (docs/decisions/0014-admin-console.md); every use case checks the role. */
export async function adminRoutes(app: FastifyInstance) {
  app.addHook('onReady', async () => {
    await promoteConfiguredAdmins(app);
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  r.get(
    '/api/admin/me',
    { schema: { tags, summary: 'Whether you are an admin', response: { 200: adminMe, ...errors } } },
    async (request) => ({
      admin: await isAdmin(app, await app.requireViewer(request)),
    }),
  );

  r.get(
    '/api/admin/contact-messages',
    {
      schema: {
        tags,
        summary: 'Messages sent with the contact form, newest first',
        querystring: contactMessageQuery,
        response: { 200: contactMessageList, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(app, await app.requireViewer(request));
      return listContactMessages(app, request.query);
    },
  );

  r.get(
    '/api/admin/promo-codes',
    {
      schema: {
        tags,
        summary: 'Platform promo codes with their uses and the revenue they brought',
        response: { 200: promoCodeList, ...errors },
      },
    },
    async (request) => ({ codes: await listPlatformCodes(app, await app.requireViewer(request)) }),
  );
  r.post(
    '/api/admin/promo-codes',
    {
      schema: {
        tags,
        summary: 'A platform promo code (any course; the platform bears the discount)',
        body: platformPromoCodeInput,
        response: { 200: promoCodeView, ...errors },
      },
    },
    async (request) => createPlatformPromoCode(app, await app.requireViewer(request), request.body),
  );
  r.post(
    '/api/admin/promo-codes/:codeId/end',
    {
      schema: {
        tags,
        summary: 'Ends a platform promo code now',
        params: promoCodeParams,
        response: { 200: promoCodeView, ...errors },
      },
    },
    async (request) => endPlatformPromoCode(app, await app.requireViewer(request), request.params.codeId),
  );

  r.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Users: search by name or email, filter by role or ban',
        querystring: userListQuery,
        response: { 200: userList, ...errors },
      },
    },
    async (request) => listUsers(app, await app.requireViewer(request), request.query),
  );

  r.post(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Invite someone: an unverified account and an email with a set-password link',
        body: inviteInput,
        response: { 200: inviteResult, ...errors },
      },
    },
    async (request) => ({ id: await inviteUser(app, await app.requireViewer(request), request.body) }),
  );

  r.get(
    '/api/admin/users/:userId',
    {
      schema: {
        tags,
        summary: 'One user: profile, sign-in sessions, enrolments, payments',
        params: userParams,
        response: { 200: adminUserDetail, ...errors },
      },
    },
    async (request) => userDetail(app, await app.requireViewer(request), request.params.userId),
  );

  r.post(
    '/api/admin/users/:userId/ban',
    {
      schema: {
        tags,
        summary: 'Ban a user (signs them out everywhere)',
        params: userParams,
        body: reasonInput,
        response: { 200: okResult, ...errors },
      },
    },
    async (request) => {
      await banUser(app, await app.requireViewer(request), request.params.userId, request.body);
      return ok;
    },
  );

  r.post(
    '/api/admin/users/:userId/unban',
    { schema: { tags, summary: 'Lift a ban', params: userParams, body: optionalReasonInput, response: { 200: okResult, ...errors } } },
    async (request) => {
      await unbanUser(app, await app.requireViewer(request), request.params.userId, request.body);
      return ok;
    },
  );

  r.post(
    '/api/admin/users/:userId/reset-two-factor',
    {
      schema: {
        tags,
        summary: "Turn off a user's two-factor sign-in",
        params: userParams,
        body: optionalReasonInput,
        response: { 200: okResult, ...errors },
      },
    },
    async (request) => {
      await resetTwoFactor(app, await app.requireViewer(request), request.params.userId, request.body);
      return ok;
    },
  );

  r.put(
    '/api/admin/users/:userId/role',
    {
      schema: {
        tags,
        summary: 'Grant or revoke the admin role',
        params: userParams,
        body: roleInput,
        response: { 200: okResult, ...errors },
      },
    },
    async (request) => {
      await setRole(app, await app.requireViewer(request), request.params.userId, request.body);
      return ok;
    },
  );

  r.post(
    '/api/admin/users/:userId/delete',
    {
      schema: {
        tags,
        summary: "Erase a user's personal data (payment records stay, pseudonymised)",
        params: userParams,
        body: deleteUserInput,
        response: { 200: okResult, ...errors },
      },
    },
    async (request) => {
      await deleteUser(app, await app.requireViewer(request), request.params.userId, request.body);
      return ok;
    },
  );

  r.get(
    '/api/admin/clubs',
    {
      schema: {
        tags,
        summary: "Clubs: search by name or the owner's name or email, newest first",
        querystring: clubListQuery,
        response: { 200: clubList, ...errors },
      },
    },
    async (request) => listClubs(app, await app.requireViewer(request), request.query),
  );

  r.get(
    '/api/admin/clubs/:clubId',
    {
      schema: {
        tags,
        summary: 'One club: owner, organisers, counts, events to come',
        params: clubParams,
        response: { 200: adminClubDetail, ...errors },
      },
    },
    async (request) => clubDetail(app, await app.requireViewer(request), request.params.clubId),
  );

  r.post(
    '/api/admin/clubs/:clubId/delete',
    {
      schema: {
        tags,
        summary: 'Delete a club (events to come cancelled, attendees told), with a reason for the audit log',
        params: clubParams,
        body: adminDeleteClubInput,
        response: { 200: okResult, ...errors },
      },
    },
    async (request) => {
      await deleteClub(app, await app.requireViewer(request), request.params.clubId, request.body);
      return ok;
    },
  );

  r.get(
    '/api/admin/jobs',
    { schema: { tags, summary: 'Background jobs that failed every attempt', response: { 200: failedJobs, ...errors } } },
    async (request) => listFailedJobs(app, await app.requireViewer(request)),
  );

  r.post(
    '/api/admin/jobs/:jobId/retry',
    { schema: { tags, summary: 'Queue a failed job again', params: jobParams, response: { 200: okResult, ...errors } } },
    async (request) => {
      await retryJob(app, await app.requireViewer(request), request.params.jobId);
      return ok;
    },
  );

  r.get(
    '/api/admin/refunds-due',
    { schema: { tags, summary: 'Refunds owed that the provider has not made yet', response: { 200: refundsDue, ...errors } } },
    async (request) => listRefundsDue(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/admin/audit',
    {
      schema: {
        tags,
        summary: 'The audit log of admin actions (newest first)',
        querystring: auditQuery,
        response: { 200: auditLog, ...errors },
      },
    },
    async (request) => readAuditLog(app, await app.requireViewer(request), request.query),
  );

  r.get(
    '/api/admin/message-reports',
    { schema: { tags, summary: 'Mailbox messages members reported (newest first)', response: { 200: messageReports, ...errors } } },
    async (request) => listMessageReports(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/admin/classroom-reports',
    { schema: { tags, summary: 'Classroom posts members reported (newest first)', response: { 200: classroomReports, ...errors } } },
    async (request) => listClassroomReports(app, await app.requireViewer(request)),
  );
}
