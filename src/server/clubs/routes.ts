import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clubInput,
  clubSearchQuery,
  clubSearchResult,
  type ClubSearchResult,
  clubsHome,
  clubView,
  createdEvents,
  deleteClubInput,
  eventInput,
  eventUpdate,
  eventView,
  type EventView,
  joinInput,
  memberActionInput,
  membersResult,
  rsvpInput,
  rsvpResult,
} from '../../shared/clubs-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { readUpload } from '../http/uploads.js';
import { getClub, listMembers } from './club-view.js';
import { createClub } from './create-club.js';
import { deleteClub } from './delete-club.js';
import { attendeesCsv, eventIcs } from './event-files.js';
import { getEventJson } from './event-view.js';
import { exploreClubs, myClubs } from './home.js';
import { cancelEvent, createEvents, updateEvent } from './manage-events.js';
import { joinClub, leaveClub, manageMember } from './membership.js';
import { rsvpEvent } from './rsvp-event.js';
import { searchClubsJson } from './search-clubs.js';
import { setClubCover, updateClub } from './update-club.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const clubParams = z.object({ clubId: z.uuid('Unknown club') });
const eventParams = clubParams.extend({ eventId: z.uuid('Unknown event') });
const memberParams = clubParams.extend({ userId: z.uuid('Unknown member') });
const created = z.object({ id: z.string() });
const ok = z.object({ ok: z.literal(true), message: z.string() });
const joined = z.object({ state: z.enum(['active', 'pending']), message: z.string() });
/** A file name from a title: letters, digits and dashes. */
const fileName = (title: string) =>
  title
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'event';

/** The clubs API: thin routes, one use case each (docs/architecture.md, "adding a domain"). */
export async function clubRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['clubs'];

  r.post(
    '/api/clubs',
    { schema: { tags, summary: 'Start a club (the creator is its owner)', body: clubInput, response: { 201: created, ...errors } } },
    async (request, reply) => {
      const id = await createClub(app, await app.requireViewer(request), request.body);
      return reply.status(201).send({ id });
    },
  );

  r.get(
    '/api/clubs/search',
    { schema: { tags, summary: 'Search clubs', querystring: clubSearchQuery, response: { 200: clubSearchResult, ...errors } } },
    async (request, reply) => {
      // clubSearchResult as JSON text, the cards written by PostgreSQL (search-clubs.ts, CARD_JSON): sent as it is.
      // A one-word search reads the session in its own statement (one round trip).
      const body = await searchClubsJson(app.searchRunner, request.query, {
        requireViewer: () => app.requireViewer(request),
        requireViewerWith: (load) => app.requireViewerWith(request, load),
      });
      return reply.type('application/json; charset=utf-8').send(body as unknown as ClubSearchResult);
    },
  );

  r.get(
    '/api/clubs/mine',
    { schema: { tags, summary: "The viewer's clubs and next events", response: { 200: clubsHome, ...errors } } },
    async (request) => myClubs(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/clubs/explore',
    { schema: { tags, summary: 'Clubs near you and upcoming events', response: { 200: clubsHome, ...errors } } },
    async (request) => exploreClubs(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/clubs/:clubId',
    {
      schema: {
        tags,
        summary: 'A club (the public part only for non-members of an approval club)',
        params: clubParams,
        response: { 200: clubView, ...errors },
      },
    },
    async (request) => getClub(app, await app.requireViewer(request), request.params.clubId),
  );

  r.put(
    '/api/clubs/:clubId',
    {
      schema: {
        tags,
        summary: "Edit a club's settings (organisers)",
        params: clubParams,
        body: clubInput,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await updateClub(app, await app.requireViewer(request), request.params.clubId, request.body);
      return { ok: true as const, message: 'Club saved' };
    },
  );

  r.post(
    '/api/clubs/:clubId/cover',
    {
      schema: {
        tags,
        summary: 'Upload a cover image (PNG, JPEG or WebP, at most 5 MB; field "file")',
        consumes: ['multipart/form-data'],
        params: clubParams,
        response: { 200: z.object({ coverImage: z.string() }), ...errors },
      },
    },
    async (request) => ({
      coverImage: await setClubCover(app, await app.requireViewer(request), request.params.clubId, () => readUpload(request)),
    }),
  );

  r.post(
    '/api/clubs/:clubId/delete',
    {
      schema: {
        tags,
        summary: 'Delete a club (its owner; type its name to confirm)',
        params: clubParams,
        body: deleteClubInput,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await deleteClub(app, await app.requireViewer(request), request.params.clubId, request.body.confirmName);
      return { ok: true as const, message: 'The club was deleted' };
    },
  );

  r.post(
    '/api/clubs/:clubId/join',
    {
      schema: {
        tags,
        summary: 'Join a club (or ask to, for an approval club)',
        params: clubParams,
        body: joinInput,
        response: { 200: joined, ...errors },
      },
    },
    async (request) => joinClub(app, await app.requireViewer(request), request.params.clubId, request.body?.answer ?? null),
  );

  r.post(
    '/api/clubs/:clubId/leave',
    { schema: { tags, summary: 'Leave a club (or withdraw a request)', params: clubParams, response: { 200: ok, ...errors } } },
    async (request) => {
      await leaveClub(app, await app.requireViewer(request), request.params.clubId);
      return { ok: true as const, message: 'You left the club' };
    },
  );

  r.get(
    '/api/clubs/:clubId/members',
    {
      schema: { tags, summary: 'Members (and, for organisers, requests)', params: clubParams, response: { 200: membersResult, ...errors } },
    },
    async (request) => listMembers(app, await app.requireViewer(request), request.params.clubId),
  );

  r.post(
    '/api/clubs/:clubId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Approve, decline, promote, demote, remove, ban, or make owner',
        params: memberParams,
        body: memberActionInput,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      const message = await manageMember(
        app,
        await app.requireViewer(request),
        request.params.clubId,
        request.params.userId,
        request.body.action,
      );
      return { ok: true as const, message };
    },
  );

  r.post(
    '/api/clubs/:clubId/events',
    {
      schema: {
        tags,
        summary: 'Create an event, or a repeat (organisers)',
        params: clubParams,
        body: eventInput,
        response: { 201: createdEvents, ...errors },
      },
    },
    async (request, reply) => {
      const ids = await createEvents(app, await app.requireViewer(request), request.params.clubId, request.body);
      return reply.status(201).send({ ids });
    },
  );

  r.get(
    '/api/clubs/:clubId/events/:eventId',
    { schema: { tags, summary: 'An event', params: eventParams, response: { 200: eventView, ...errors } } },
    async (request, reply) => {
      const body = await getEventJson(app, (load) => app.requireViewerWith(request, load), request.params.clubId, request.params.eventId);
      // Already JSON, built by PostgreSQL in the eventView shape: sent as it is.
      return reply.type('application/json; charset=utf-8').send(body as unknown as EventView);
    },
  );

  r.put(
    '/api/clubs/:clubId/events/:eventId',
    { schema: { tags, summary: 'Edit one event (organisers)', params: eventParams, body: eventUpdate, response: { 200: ok, ...errors } } },
    async (request) => {
      await updateEvent(app, await app.requireViewer(request), request.params.clubId, request.params.eventId, request.body);
      return { ok: true as const, message: 'Event saved' };
    },
  );

  r.post(
    '/api/clubs/:clubId/events/:eventId/cancel',
    { schema: { tags, summary: 'Cancel one event (organisers)', params: eventParams, response: { 200: ok, ...errors } } },
    async (request) => {
      await cancelEvent(app, await app.requireViewer(request), request.params.clubId, request.params.eventId);
      return { ok: true as const, message: 'The event was cancelled' };
    },
  );

  r.put(
    '/api/clubs/:clubId/events/:eventId/rsvp',
    {
      schema: {
        tags,
        summary: 'Answer going or not going (members)',
        params: eventParams,
        body: rsvpInput,
        response: { 200: rsvpResult, ...errors },
      },
    },
    async (request) => rsvpEvent(app, await app.requireViewer(request), request.params.clubId, request.params.eventId, request.body.answer),
  );

  r.get(
    '/api/clubs/:clubId/events/:eventId/event.ics',
    { schema: { tags, summary: 'The event as an .ics file', params: eventParams } },
    async (request, reply) => {
      const { ics, title } = await eventIcs(app, await app.requireViewer(request), request.params.clubId, request.params.eventId);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(title)}.ics"`)
        .send(ics);
    },
  );

  r.get(
    '/api/clubs/:clubId/events/:eventId/attendees.csv',
    { schema: { tags, summary: 'The attendees as CSV (organisers)', params: eventParams } },
    async (request, reply) => {
      const { csv, title } = await attendeesCsv(app, await app.requireViewer(request), request.params.clubId, request.params.eventId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(title)}-attendees.csv"`)
        .send(csv);
    },
  );
}
