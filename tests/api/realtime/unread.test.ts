import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get } from '../../support/http.js';

/** GET /api/me/unread: the app shell's badge sums every registered unread counter. */
const ctx = useTestApp();

describe('unread counts', () => {
  it('needs a session', async () => {
    const res = await get(ctx.app, '/api/me/unread');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('answers every registered counter for the caller, and their total', async () => {
    const [ada, bob] = await Promise.all([createSignedInUser(ctx.app), createSignedInUser(ctx.app)]);
    ctx.app.realtime.registerUnreadCounter('messages', async (userId) => (userId === ada.id ? 2 : 0));
    ctx.app.realtime.registerUnreadCounter('notifications', async (userId) => (userId === ada.id ? 5 : 1));
    const mine = await get(ctx.app, '/api/me/unread', { cookie: ada.cookie });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    expect(mine.json()).toEqual({ counts: { messages: 2, notifications: 5 }, total: 7 });
    expect((await get(ctx.app, '/api/me/unread', { cookie: bob.cookie })).json()).toEqual({
      counts: { messages: 0, notifications: 1 },
      total: 1,
    });
  });
});
