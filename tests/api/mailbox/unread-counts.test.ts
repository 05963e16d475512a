import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { join, makeClub } from '../../support/clubs.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';

/**
 * Issue 23, item 1: the app shell shows two counts, kept apart. The Mailbox badge counts
 * conversations with an unread message (not messages, not notifications); the bell counts
 * unread notifications (a new message is not one of them: it is on the Mailbox badge).
 */
const ctx = useTestApp({ MAILBOX_SEND_LIMIT: '1000' });

const send = (from: SignedInUser, to: SignedInUser, body: string) =>
  post(ctx.app, `/api/mailbox/conversations/${to.id}/messages`, { body, clientId: randomUUID() }, { cookie: from.cookie });
const counts = async (who: SignedInUser) => {
  const res = await get(ctx.app, '/api/me/unread', { cookie: who.cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as { counts: Record<string, number>; total: number };
};

describe('the Mailbox badge and the bell count different things', () => {
  it('three messages in one conversation and one in another are two unread conversations', async () => {
    const [ada, bob, cy] = await Promise.all([0, 1, 2].map(() => createSignedInUser(ctx.app)));
    for (const body of ['one', 'two', 'three']) expect((await send(bob, ada, body)).statusCode).toBe(201);
    expect((await send(cy, ada, 'hello')).statusCode).toBe(201);
    expect(await counts(ada)).toEqual({ counts: { messages: 2, notifications: 0 }, total: 2 });
    // Her own message does not count; reading a conversation takes it off.
    expect((await send(ada, bob, 'hi back')).statusCode).toBe(201);
    expect((await post(ctx.app, `/api/mailbox/conversations/${bob.id}/read`, {}, { cookie: ada.cookie })).statusCode).toBe(200);
    expect(await counts(ada)).toEqual({ counts: { messages: 1, notifications: 0 }, total: 1 });
  });

  it('a notification counts on the bell only; a message on the Mailbox only', async () => {
    const [olga, ines] = await Promise.all([createSignedInUser(ctx.app), createSignedInUser(ctx.app)]);
    const clubId = await makeClub(ctx.app, olga, { visibility: 'approval', joinQuestion: 'Why?' });
    expect(await join(ctx.app, ines, clubId, 'Rook endings')).toBe('pending');
    expect(await counts(olga)).toEqual({ counts: { messages: 0, notifications: 1 }, total: 1 });
    expect((await send(ines, olga, 'Did you see my request?')).statusCode).toBe(201);
    expect(await counts(olga)).toEqual({ counts: { messages: 1, notifications: 1 }, total: 2 });
  });
});
