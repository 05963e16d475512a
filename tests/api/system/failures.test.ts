import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser, createVerifiedUser, newUser, outbox, signUp } from '../../support/factories.js';
import { get, patch, post, randomIp, uniqueEmail } from '../../support/http.js';

const ctx = useTestApp();

/**
 * Makes the real database refuse one kind of write for the duration of `run`: a trigger
 * raising an error when `condition` (SQL on NEW/OLD) holds. Other tests' rows never match.
 */
async function withFailingWrite(table: string, event: string, condition: string, run: () => Promise<void>) {
  const name = `agora_test_fail_${randomBytes(4).toString('hex')}`;
  const db = ctx.app.database.db;
  await db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin if ${condition} then raise exception 'injected failure'; end if; return new; end $$`),
  );
  await db.execute(sql.raw(`create trigger ${name} before ${event} on "${table}" for each row execute function ${name}()`));
  try {
    await run();
  } finally {
    await db.execute(sql.raw(`drop trigger ${name} on "${table}"`));
    await db.execute(sql.raw(`drop function ${name}()`));
  }
}

describe('failures of the database keep the messages of the spec', () => {
  it('a failure saving the user record answers "User table save error" and sends no email', async () => {
    const user = newUser({ email: uniqueEmail('savefail') });
    await withFailingWrite('user', 'insert', `new.email = '${user.email}'`, async () => {
      const res = await signUp(ctx.app, user);
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toBe('User table save error');
    });
    expect(await outbox(ctx.app, user.email)).toEqual([]);
    // Once the database accepts it again, the same sign-up works.
    expect((await signUp(ctx.app, user)).statusCode).toBe(201);
  });

  it('a failure saving the city answers "Error updating location"', async () => {
    const user = await createSignedInUser(ctx.app);
    await withFailingWrite('user', 'update', `new.id = '${user.id}' and new.city is distinct from old.city`, async () => {
      const res = await patch(ctx.app, `/api/users/${user.id}`, { city: 'Lisbon' }, { cookie: user.cookie });
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toBe('Error updating location');
    });
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().city).toBeNull();
  });

  it('a sign-in that fails for another reason than the credentials answers "Error signing in"', async () => {
    const user = await createVerifiedUser(ctx.app);
    const me = await ctx.app.database.db.execute<{ id: string }>(sql`select id from "user" where email = ${user.email}`);
    const id = (me as unknown as { rows: { id: string }[] }).rows[0].id;
    await withFailingWrite('session', 'insert', `new.user_id = '${id}'`, async () => {
      const res = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toBe('Error signing in');
      expect(res.headers['set-cookie']).toBeUndefined();
    });
    expect((await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
  });
});

describe('abuse limits', () => {
  it('more than 10 sign-ups a minute from one IP answer 429 with a retry time', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      // Refused forms count too: the limit is on attempts.
      expect((await signUp(ctx.app, { email: '' }, { ip })).statusCode).toBe(400);
    }
    const res = await signUp(ctx.app, newUser(), { ip });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().error.code).toBe('rate_limited');
    // Another address is not affected.
    expect((await signUp(ctx.app, newUser(), { ip: randomIp() })).statusCode).toBe(201);
  });
});
