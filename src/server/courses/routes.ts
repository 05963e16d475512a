import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  classTimeInput,
  classTimeMove,
  courseInput,
  courseView,
  dropInput,
  enrolInput,
  enrolmentResult,
  type CourseView,
  reviewInput,
  rosterResult,
  sessionInput,
  sessionUpdate,
  dropResult,
} from '../../shared/courses-schemas.js';
import { dashboardResult } from '../../shared/dashboard-schemas.js';
import { educatorProfile } from '../../shared/educators-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { readUpload } from '../http/uploads.js';
import { calendarFeedUrl, calendarForFeed, userCalendar, type CalendarSources } from './calendar.js';
import { courseViewJson } from './course-page.js';
import { archiveCourse, createCourse, publishCourse, setCourseCover, updateCourse } from './course-service.js';
import { addClassTimes, changeCourseSession, createCourseSession, deleteClassTime, moveClassTime } from './course-session-service.js';
import { getDashboard } from './dashboard-service.js';
import { getEducatorProfile } from './educator-page.js';
import { dropEnrolment, enrolInSession } from './enrolment-service.js';
import { upsertReview } from './review-service.js';
import { getRoster, rosterCsv } from './roster-service.js';
import { declineOffer } from './waitlist-offers.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const courseParams = z.object({ courseId: z.uuid('Unknown course') });
const sessionParams = courseParams.extend({ sessionId: z.uuid('Unknown session') });
const created = z.object({ id: z.string() });
const ok = z.object({ ok: z.literal(true), message: z.string() });

export interface CourseRoutesOptions {
  /** What other domains add to a user's calendar (composition creates it: calendar.ts). */
  calendarSources: CalendarSources;
}

export async function courseRoutes(app: FastifyInstance, { calendarSources }: CourseRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['courses'];

  // The educator's public profile: their courses are courses' (ADR 0035); tagged with educators'.
  r.get(
    '/api/educators/:educatorId',
    {
      schema: {
        tags: ['educators'],
        summary: 'Public educator profile',
        params: z.object({ educatorId: z.uuid('Unknown educator') }),
        response: { 200: educatorProfile, ...errors },
      },
    },
    async (request) => getEducatorProfile(app, await app.requireViewer(request), request.params.educatorId),
  );

  r.post(
    '/api/courses',
    {
      schema: { tags, summary: 'Create a draft course (educators)', body: courseInput, response: { 201: created, ...errors } },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      return reply.status(201).send({ id: await createCourse(app, viewer, request.body) });
    },
  );

  r.get(
    '/api/courses/:courseId',
    {
      schema: {
        tags,
        summary: 'A course with its sessions, class times and reviews',
        params: courseParams,
        response: { 200: courseView, ...errors },
      },
    },
    async (request, reply) => {
      // The JSON comes from PostgreSQL and this server's copy of the page's shared part
      // (course-page.ts, courseViewJson) and is sent as is: checking and serializing a
      // page this size through the schema cost more than reading it. The viewer is read in
      // the page's own statement (one round trip).
      const json = await courseViewJson(app, (load) => app.requireViewerWith(request, load), request.params.courseId);
      return reply.type('application/json; charset=utf-8').send(json as unknown as CourseView);
    },
  );

  r.put(
    '/api/courses/:courseId',
    {
      schema: {
        tags,
        summary: 'Edit a course (its educator only)',
        params: courseParams,
        body: courseInput,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await updateCourse(app, await app.requireViewer(request), request.params.courseId, request.body);
      return { ok: true as const, message: 'Course saved' };
    },
  );

  r.post(
    '/api/courses/:courseId/publish',
    {
      schema: { tags, summary: 'Publish a course', params: courseParams, response: { 200: ok, ...errors } },
    },
    async (request) => {
      await publishCourse(app, await app.requireViewer(request), request.params.courseId);
      return { ok: true as const, message: 'Your course is published' };
    },
  );

  r.post(
    '/api/courses/:courseId/archive',
    {
      schema: { tags, summary: 'Archive a course (hidden from search)', params: courseParams, response: { 200: ok, ...errors } },
    },
    async (request) => {
      await archiveCourse(app, await app.requireViewer(request), request.params.courseId);
      return { ok: true as const, message: 'Your course is archived' };
    },
  );

  r.post(
    '/api/courses/:courseId/cover',
    {
      schema: {
        tags,
        summary: 'Upload a cover image (PNG, JPEG or WebP, at most 5 MB; field "file")',
        consumes: ['multipart/form-data'],
        params: courseParams,
        response: { 200: z.object({ coverImage: z.string() }), ...errors },
      },
    },
    async (request) => {
      const url = await setCourseCover(app, await app.requireViewer(request), request.params.courseId, () => readUpload(request));
      return { coverImage: url };
    },
  );

  r.post(
    '/api/courses/:courseId/sessions',
    {
      schema: {
        tags,
        summary: 'Add a session (a run of the course)',
        params: courseParams,
        body: sessionInput,
        response: { 201: created, ...errors },
      },
    },
    async (request, reply) => {
      const id = await createCourseSession(app, await app.requireViewer(request), request.params.courseId, request.body);
      return reply.status(201).send({ id });
    },
  );

  r.patch(
    '/api/courses/:courseId/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Change capacity or cancel a session',
        params: sessionParams,
        body: sessionUpdate,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      const { dropped: n } = await changeCourseSession(
        app,
        await app.requireViewer(request),
        request.params.courseId,
        request.params.sessionId,
        request.body,
      );
      if (request.body.status !== 'cancelled') return { ok: true as const, message: 'Session saved' };
      return {
        ok: true as const,
        message: n ? `Session cancelled; ${n} learner${n === 1 ? ' was' : 's were'} unenrolled and told by email` : 'Session cancelled',
      };
    },
  );

  r.post(
    '/api/courses/:courseId/sessions/:sessionId/class-times',
    {
      schema: {
        tags,
        summary: 'Add a class time, or a weekly series (repeatWeeks)',
        params: sessionParams,
        body: classTimeInput,
        response: { 201: z.object({ ids: z.array(z.string()) }), ...errors },
      },
    },
    async (request, reply) => {
      const ids = await addClassTimes(
        app,
        await app.requireViewer(request),
        request.params.courseId,
        request.params.sessionId,
        request.body,
      );
      return reply.status(201).send({ ids });
    },
  );

  r.delete(
    '/api/courses/:courseId/sessions/:sessionId/class-times/:classTimeId',
    {
      schema: {
        tags,
        summary: 'Remove a class time',
        params: sessionParams.extend({ classTimeId: z.uuid('Unknown class time') }),
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      const p = request.params;
      await deleteClassTime(app, await app.requireViewer(request), p.courseId, p.sessionId, p.classTimeId);
      return { ok: true as const, message: 'Class time removed' };
    },
  );

  r.patch(
    '/api/courses/:courseId/sessions/:sessionId/class-times/:classTimeId',
    {
      schema: {
        tags,
        summary: 'Move a class time (its learners get a calendar update and their reminders follow)',
        params: sessionParams.extend({ classTimeId: z.uuid('Unknown class time') }),
        body: classTimeMove,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await moveClassTime(app, await app.requireViewer(request), request.params, request.body);
      return { ok: true as const, message: 'Class time moved; its learners were sent the new time' };
    },
  );

  r.post(
    '/api/courses/:courseId/sessions/:sessionId/enrol',
    {
      schema: {
        tags,
        summary:
          'Enrol in a session (free: at once, or the waitlist when full; paid: the checkout); learnerIds: whom ("me" and/or your learner profiles), one seat each',
        params: sessionParams,
        body: enrolInput,
        response: { 200: enrolmentResult, ...errors },
      },
    },
    async (request) => {
      const result = await enrolInSession(app, await app.requireViewer(request), {
        ...request.params,
        learnerIds: request.body?.learnerIds,
      });
      if (result.paid) {
        const pending = { id: '', sessionId: request.params.sessionId, status: 'pending_payment' as const, waitlistPosition: null };
        return { enrolment: pending, enrolments: [], next: result.checkout, message: 'Continue to payment' };
      }
      const all = result.enrolments.map((e) => ({
        id: e.id,
        sessionId: e.sessionId,
        status: e.status,
        waitlistPosition: e.waitlistPosition,
        learnerProfileId: e.learnerProfileId,
        learnerName: e.name,
      }));
      const [first] = all;
      return {
        enrolment: { id: first.id, sessionId: first.sessionId, status: first.status, waitlistPosition: first.waitlistPosition },
        enrolments: all,
        next: null,
        message: enrolledMessage(all, result.course.priceCents > 0),
      };
    },
  );

  r.post(
    '/api/courses/:courseId/sessions/:sessionId/offer/decline',
    {
      schema: {
        tags,
        summary: 'Decline the seat offered to you from the waitlist of a paid session: it goes to the next in line',
        params: sessionParams,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      const told = await declineOffer(app, await app.requireViewer(request), request.params);
      return { ok: true as const, ...told };
    },
  );

  r.post(
    '/api/courses/:courseId/sessions/:sessionId/drop',
    {
      schema: {
        tags,
        summary:
          "Drop your enrolment, or one learner's (learnerId); the seat goes to the first learner waiting (a paid one is refunded per the refund policy)",
        params: sessionParams,
        body: dropInput,
        response: { 200: dropResult, ...errors },
      },
    },
    async (request) => {
      const told = await dropEnrolment(app, await app.requireViewer(request), {
        ...request.params,
        learnerId: request.body?.learnerId ?? null,
      });
      return { ok: true as const, ...told };
    },
  );

  r.put(
    '/api/courses/:courseId/review',
    {
      schema: {
        tags,
        summary: 'Write or edit your review of a course',
        params: courseParams,
        body: reviewInput,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await upsertReview(app, await app.requireViewer(request), request.params.courseId, request.body);
      return { ok: true as const, message: 'Thank you for your review' };
    },
  );

  r.get(
    '/api/courses/:courseId/roster',
    {
      schema: {
        tags,
        summary: "The course's roster (its educator only)",
        params: courseParams,
        response: { 200: rosterResult, ...errors },
      },
    },
    async (request) => {
      const { rows } = await getRoster(app, await app.requireViewer(request), request.params.courseId);
      return { rows: rows.map((row) => ({ ...row, status: row.status as 'active' })) };
    },
  );

  r.get(
    '/api/courses/:courseId/roster.csv',
    {
      schema: { tags, summary: 'The roster as CSV', params: courseParams },
    },
    async (request, reply) => {
      const { course, rows } = await getRoster(app, await app.requireViewer(request), request.params.courseId);
      const name =
        course.title
          .replace(/[^a-z0-9]+/gi, '-')
          .replace(/^-|-$/g, '')
          .toLowerCase() || 'course';
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}-roster.csv"`)
        .send(rosterCsv(rows));
    },
  );

  r.get(
    '/api/dashboard',
    {
      schema: {
        tags,
        summary: 'Upcoming class times, courses, waitlists (and taught courses)',
        response: { 200: dashboardResult, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getDashboard(app, await app.requireViewer(request));
    },
  );

  r.get(
    '/api/calendar.ics',
    {
      schema: { tags: ['calendar'], summary: 'Your class times as an .ics file' },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="agora-classes.ics"')
        .send(await userCalendar(app, calendarSources, viewer.user.id));
    },
  );

  r.post(
    '/api/calendar/feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Your private calendar feed URL (rotate: true makes a new one)',
        body: z.object({ rotate: z.boolean().default(false) }).nullish(),
        response: { 200: z.object({ url: z.string() }), ...errors },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      // No body at all (a bare POST) arrives as null: it means "don't rotate".
      return { url: await calendarFeedUrl(app, viewer.user.id, request.body?.rotate ?? false) };
    },
  );

  r.get(
    '/api/calendar/feed/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'A private calendar feed (no session: the URL is the secret)',
        params: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{20,64}\.ics$/, 'Unknown feed') }),
      },
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const calendar = await calendarForFeed(app, calendarSources, request.params.file.replace(/\.ics$/, ''));
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(calendar);
    },
  );
}

/** What a free enrolment tells: "You're enrolled", or per learner ("Mia is enrolled; Leo is number 1 on the waitlist"). */
function enrolledMessage(all: { status: string; waitlistPosition: number | null; learnerName: string | null }[], paid: boolean): string {
  if (all.length === 1 && all[0].learnerName === null) {
    const [e] = all;
    return e.status === 'active'
      ? "You're enrolled"
      : paid
        ? `This session is full: you are number ${e.waitlistPosition} on the waitlist. Nothing to pay now: when a seat frees, it is held for you and you pay then.`
        : `This session is full: you are number ${e.waitlistPosition} on the waitlist`;
  }
  const parts = all.map((e) => {
    const who = e.learnerName ?? 'You';
    const is = e.learnerName ? 'is' : 'are';
    return e.status === 'active' ? `${who} ${is} enrolled` : `${who} ${is} number ${e.waitlistPosition} on the waitlist`;
  });
  const waiting = all.some((e) => e.status === 'waitlisted');
  return `${parts.join('; ')}${waiting && paid ? '. Nothing to pay now: when a seat frees, it is held and you pay then.' : ''}`;
}
