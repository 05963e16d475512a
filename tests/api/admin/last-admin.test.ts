import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user as userTable } from '../../../src/server/db/schema/accounts.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, post } from '../../support/http.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/**
 * Issue 23, item 12: two admins acting on each other at the same moment must leave an
 * active admin. "The last admin" is about every admin of the database, so this file has a
 * database of its own (the run's database holds the admins of other test files); the
 * requests go through the app's pool, so their transactions really interleave.
 */
let app: TestApp;
let run: RunDatabase | null = null;

beforeAll(async () => {
  const made = await createRunDatabase('agora_last_admin');
  run = 'error' in made ? null : made;
  app = run ? await buildTestApp({ DATABASE_URL: run.url }) : await buildTestApp({}, { ownDatabase: true });
});
afterAll(async () => {
  await app?.close();
  await run?.drop();
});

/** Exactly these two accounts are the active admins of the database. */
async function onlyAdmins(x: SignedInUser, y: SignedInUser) {
  const db = app.database.db;
  await db
    .update(userTable)
    .set({ role: 'user' })
    .where(and(eq(userTable.role, 'admin'), ne(userTable.id, x.id), ne(userTable.id, y.id)));
  await db
    .update(userTable)
    .set({ role: 'admin', banned: false })
    .where(inArray(userTable.id, [x.id, y.id]));
}

async function activeAdmins() {
  return app.database.db
    .select({ id: userTable.id })
    .from(userTable)
    .where(and(eq(userTable.role, 'admin'), eq(userTable.banned, false)));
}

const demote = (by: SignedInUser, target: SignedInUser) =>
  call(app, 'PUT', `/api/admin/users/${target.id}/role`, { role: 'user' }, { cookie: by.cookie });
const ban = (by: SignedInUser, target: SignedInUser) =>
  post(app, `/api/admin/users/${target.id}/ban`, { reason: 'coup' }, { cookie: by.cookie });

describe('the last active admin', () => {
  const rounds: [string, typeof demote, typeof demote][] = [
    ['mutual demotions', demote, demote],
    ['mutual bans', ban, ban],
    ['a demotion against a ban', demote, ban],
  ];
  for (const [what, first, second] of rounds) {
    it(`survives ${what} at the same moment (5 rounds): one wins, the other is refused`, async () => {
      for (let round = 0; round < 5; round++) {
        const x = await createSignedInUser(app);
        const y = await createSignedInUser(app);
        await onlyAdmins(x, y);
        const answers = await Promise.all([first(x, y), second(y, x)]);
        const said = `round ${round}: ${answers.map((r) => `${r.statusCode} ${r.body}`).join(' | ')}`;
        // Exactly one wins.
        const winners = answers.map((r, i) => (r.statusCode === 200 ? i : -1)).filter((i) => i >= 0);
        expect(winners, said).toHaveLength(1);
        const winner = winners[0];
        const loser = 1 - winner;
        const winnerUser = winner === 0 ? x : y;
        // The loser is refused as no admin any more; when the winner banned them, the ban
        // ended their sessions in the same transaction, so their own request may also find
        // itself signed out (401) if the ban committed before it read the session.
        const bannedByWinner = (winner === 0 ? first : second) === ban;
        const refusal = answers[loser];
        const accepted = bannedByWinner ? [401, 403] : [403];
        expect(accepted, said).toContain(refusal.statusCode);
        expect(refusal.json().error.code, said).toBe(refusal.statusCode === 401 ? 'unauthorized' : 'not_admin');
        expect(
          (await activeAdmins()).map((a) => a.id),
          said,
        ).toEqual([winnerUser.id]);
      }
    });
  }

  it('cannot be taken away by an admin who is the only other one left', async () => {
    const x = await createSignedInUser(app);
    const y = await createSignedInUser(app);
    await onlyAdmins(x, y);
    expect((await demote(x, y)).statusCode).toBe(200);
    // y is no admin any more: refused before anything changes.
    expect((await ban(y, x)).statusCode).toBe(403);
    expect((await activeAdmins()).map((a) => a.id)).toEqual([x.id]);
  });
});
