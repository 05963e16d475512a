import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  certificateCodeParam,
  certificateLookup,
  certificateRuleBody,
  markInput,
  markResult,
  myAttendance,
  sessionAttendance,
} from '../../shared/attendance-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { getMyAttendance, getSessionAttendance, markAttendance } from './attendance-service.js';
import { certificatePdf, getCertificateRule, lookupCertificate, revokeCertificate, setCertificateRule } from './certificates.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const courseParams = z.object({ courseId: z.uuid('Unknown course') });
const sessionParams = courseParams.extend({ sessionId: z.uuid('Unknown session') });
const markParams = sessionParams.extend({ classTimeId: z.uuid('Unknown class time'), learnerId: z.uuid('Unknown learner') });

/** Attendance and certificates (issue 25, ADR 0069). */
export async function attendanceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['attendance'];

  r.get(
    '/api/courses/:courseId/sessions/:sessionId/attendance',
    {
      schema: {
        tags,
        summary: "A session's attendance sheet: class times, enrolled learners, marks, certificates (its educator only)",
        params: sessionParams,
        response: { 200: sessionAttendance, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { courseId, sessionId } = request.params;
      return getSessionAttendance(app, await app.requireViewer(request), courseId, sessionId);
    },
  );

  r.put(
    '/api/courses/:courseId/sessions/:sessionId/class-times/:classTimeId/attendance/:learnerId',
    {
      schema: {
        tags,
        summary: "Mark a learner present, late or absent at a class time (the course's educator only; one record per learner)",
        params: markParams,
        body: markInput,
        response: { 200: markResult, ...errors },
      },
    },
    async (request) => markAttendance(app, await app.requireViewer(request), request.params, request.body.mark),
  );

  r.get(
    '/api/attendance/mine',
    {
      schema: {
        tags,
        summary: 'Your attendance in each session you hold a seat in, with your certificates',
        response: { 200: myAttendance, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getMyAttendance(app, await app.requireViewer(request));
    },
  );

  r.get(
    '/api/courses/:courseId/certificate-rule',
    {
      schema: {
        tags,
        summary: "The course's certificate of completion rule (its educator only)",
        params: courseParams,
        response: { 200: certificateRuleBody, ...errors },
      },
    },
    async (request) => getCertificateRule(app, await app.requireViewer(request), request.params.courseId),
  );

  r.put(
    '/api/courses/:courseId/certificate-rule',
    {
      schema: {
        tags,
        summary: 'Set the certificate rule: null (off) or the share of classes to attend, in percent',
        params: courseParams,
        body: certificateRuleBody,
        response: { 200: certificateRuleBody, ...errors },
      },
    },
    async (request) => setCertificateRule(app, await app.requireViewer(request), request.params.courseId, request.body.minPercent),
  );

  r.get(
    '/api/certificates/:code',
    {
      schema: {
        tags,
        summary: 'Verify a certificate: who, what and when, and whether it was revoked (anyone, no session needed)',
        params: certificateCodeParam,
        response: { 200: certificateLookup, ...errors, 429: errorBody },
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return lookupCertificate(app, request.params.code);
    },
  );

  r.get(
    '/api/certificates/:code/pdf',
    {
      schema: { tags, summary: 'Your certificate as a PDF (its learner only)', params: certificateCodeParam },
    },
    async (request, reply) => {
      const file = await certificatePdf(app, await app.requireViewer(request), request.params.code);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.body);
    },
  );

  r.post(
    '/api/certificates/:code/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a certificate (the educator of its course only); it then answers as revoked',
        params: certificateCodeParam,
        response: { 200: certificateLookup, ...errors },
      },
    },
    async (request) => revokeCertificate(app, await app.requireViewer(request), request.params.code),
  );
}
