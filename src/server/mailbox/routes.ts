import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '../../shared/errors.js';
import {
  blockList,
  conversationList,
  conversationsQuery,
  markReadAnswer,
  markReadInput,
  messageParams,
  ok,
  personParams,
  reportInput,
  sendMessageInput,
  sentMessage,
  conversationPage,
  conversationPageQuery,
} from '../../shared/mailbox-schemas.js';
import { sendMessage } from './send-message.js';
import { blockUser, listBlocks, reportMessage, unblockUser } from './safety.js';
import { getConversation, listConversations, markRead } from './conversations.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };

/** The mailbox API: conversations, a conversation with a person, sending, read positions, blocks, reports. */
export async function mailboxRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['mailbox'];

  r.get(
    '/api/mailbox/conversations',
    {
      schema: {
        tags,
        summary: 'Your conversations, newest activity first (a page; nextCursor for the next)',
        querystring: conversationsQuery,
        response: { 200: conversationList, ...errors },
      },
    },
    async (request) => listConversations(app, await app.requireViewer(request), { ...request.query, q: request.query.q || undefined }),
  );

  r.get(
    '/api/mailbox/conversations/:userId',
    {
      schema: {
        tags,
        summary: 'Your conversation with a person (a page of messages, oldest first; cursors before/after)',
        params: personParams,
        querystring: conversationPageQuery,
        response: { 200: conversationPage, ...errors },
      },
    },
    async (request) => getConversation(app, await app.requireViewer(request), request.params.userId, request.query),
  );

  r.post(
    '/api/mailbox/conversations/:userId/messages',
    {
      schema: {
        tags,
        summary: 'Send a message (a retry with the same clientId answers the stored message)',
        params: personParams,
        body: sendMessageInput,
        response: { 200: sentMessage, 201: sentMessage, ...errors },
      },
    },
    async (request, reply) => {
      // The session is read in the send's own statement: one round trip (app.requireViewerWith).
      const { message, created } = await sendMessage(
        app,
        (load) => app.requireViewerWith(request, load),
        request.params.userId,
        request.body,
      );
      return reply.status(created ? 201 : 200).send({ message });
    },
  );

  r.post(
    '/api/mailbox/conversations/:userId/read',
    {
      schema: {
        tags,
        summary: 'Mark the conversation read (up to a message, default all)',
        params: personParams,
        body: markReadInput,
        response: { 200: markReadAnswer, ...errors },
      },
    },
    async (request) => markRead(app, await app.requireViewer(request), request.params.userId, request.body?.upTo),
  );

  r.get(
    '/api/mailbox/blocks',
    { schema: { tags, summary: 'The people you blocked', response: { 200: blockList, ...errors } } },
    async (request) => listBlocks(app, await app.requireViewer(request)),
  );

  r.put(
    '/api/mailbox/blocks/:userId',
    { schema: { tags, summary: 'Block a person (no messages either way)', params: personParams, response: { 200: ok, ...errors } } },
    async (request) => {
      await blockUser(app, await app.requireViewer(request), request.params.userId);
      return { ok: true as const, message: 'Blocked. Neither of you can message the other.' };
    },
  );

  r.delete(
    '/api/mailbox/blocks/:userId',
    { schema: { tags, summary: 'Unblock a person', params: personParams, response: { 200: ok, ...errors } } },
    async (request) => {
      await unblockUser(app, await app.requireViewer(request), request.params.userId);
      return { ok: true as const, message: 'Unblocked' };
    },
  );

  r.post(
    '/api/mailbox/messages/:messageId/report',
    {
      schema: {
        tags,
        summary: 'Report a message you received',
        params: messageParams,
        body: reportInput,
        response: { 201: ok, ...errors },
      },
    },
    async (request, reply) => {
      await reportMessage(app, await app.requireViewer(request), request.params.messageId, request.body.reason);
      return reply.status(201).send({ ok: true as const, message: 'Thank you. Our team will look at this message.' });
    },
  );
}
