import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { post } from '../../support/http.js';
import { openSocket, opened } from '../../support/realtime.js';

/**
 * The embedded default (PGlite, no DATABASE_URL): the same publish path (pg_notify) runs
 * through PGlite's own LISTEN in the one process.
 */
const ctx = useTestApp({ DATABASE_URL: '' }, { ownDatabase: true });

describe('realtime on PGlite', () => {
  it('delivers a published event to the user’s socket, and a sign-out closes it', async () => {
    expect(ctx.app.database.kind).toBe('pglite');
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    expect((await post(ctx.app, '/api/dev/realtime/echo', { note: 'embedded' }, { cookie: ada.cookie })).statusCode).toBe(200);
    expect(await tab.next((m) => m.type === 'dev.echo')).toMatchObject({ note: 'embedded' });
    expect((await post(ctx.app, '/api/accounts/sign-out', undefined, { cookie: ada.cookie })).statusCode).toBe(200);
    expect(await tab.closed).toBe(4401);
  });
});
