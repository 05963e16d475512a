import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits } from '../../../src/server/accounts/rate-limits.js';
import { rowsOf } from '../../../src/server/db/transaction.js';
import { buildTestApp, openTestDatabase, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { post, randomIp, uniqueEmail } from '../../support/http.js';

/**
 * Every rate limit is global and exact (ADR 0057): two instances of the app on one database
 * (two builds, each with its own pool, as two processes behind a balancer have) share each
 * limit, and concurrent requests never pass it.
 */
const SEND_LIMIT = 30;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  [one, two] = await Promise.all([
    // A request waits for a pool connection rather than answering 503 on a loaded machine: the limit is the subject here.
    buildTestApp({ MAILBOX_SEND_LIMIT: String(SEND_LIMIT), DATABASE_CONNECT_TIMEOUT_MS: '30000' }),
    buildTestApp({ MAILBOX_SEND_LIMIT: String(SEND_LIMIT), DATABASE_CONNECT_TIMEOUT_MS: '30000' }),
  ]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
/** The i-th request goes to one instance, the next to the other (a round-robin balancer). */
const instance = (i: number) => (i % 2 === 0 ? one : two);

describe('a route limit across two instances', () => {
  it('password reset (5 a minute per IP): 20 concurrent requests from one IP over both instances, exactly 5 pass', async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(instance(i), '/api/accounts/password-reset', { email: uniqueEmail() }, { ip })),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 200: 5, 429: 15 });
    const refused = responses.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().error.message).toMatch(/rate limit|too many/i);
    // Still refused afterwards on either instance; another IP, and another route, count apart.
    expect((await post(one, '/api/accounts/password-reset', { email: uniqueEmail() }, { ip })).statusCode).toBe(429);
    expect((await post(two, '/api/accounts/password-reset', { email: uniqueEmail() }, { ip: randomIp() })).statusCode).toBe(200);
    expect((await post(two, '/api/accounts/resend-verification', { email: uniqueEmail() }, { ip })).statusCode).toBe(200);
  });

  it('the remaining count is one count: headers on both instances go down together', async () => {
    const ip = randomIp();
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(instance(i), '/api/accounts/password-reset', { email: uniqueEmail() }, { ip });
      expect(res.statusCode).toBe(200);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['4', '3', '2', '1']);
  });
});

describe("the auth library's limiter across two instances", () => {
  it('its default rule (100 a minute per IP and path): 110 concurrent requests over both instances, exactly 100 pass', async () => {
    const ip = randomIp();
    const request = (app: TestApp) =>
      app.auth.handler(new Request(new URL('/api/auth/ok', app.config.publicUrl), { headers: { 'x-forwarded-for': ip } }));
    const responses = await Promise.all(Array.from({ length: 110 }, (_, i) => request(instance(i))));
    expect(tally(responses.map((r) => r.status))).toEqual({ 200: 100, 429: 10 });
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('x-retry-after'))).toBeGreaterThan(0);
    // Counted in the shared table, not in a process's memory.
    const [row] = await rowsOf<{ count: number }>(one.database.db, sql`select count from rate_limit_hit where key like ${`auth:${ip}%`}`);
    expect(Number(row.count)).toBe(110);
  });
});

describe('the mailbox send limit under concurrency', () => {
  it(`100 concurrent sends over both instances (to four people, first messages included): exactly ${SEND_LIMIT} stored`, async () => {
    const sender = await createSignedInUser(one);
    const others = await Promise.all(Array.from({ length: 4 }, () => createSignedInUser(two)));
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(
          instance(i),
          `/api/mailbox/conversations/${others[i % 4].id}/messages`,
          { body: `m${i}`, clientId: randomUUID() },
          { cookie: sender.cookie },
        ),
      ),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 201: SEND_LIMIT, 429: 100 - SEND_LIMIT });
    const [stored] = await rowsOf<{ n: number }>(
      one.database.db,
      sql`select count(*)::int as n from message where sender_id = ${sender.id}`,
    );
    expect(stored.n).toBe(SEND_LIMIT);
    const refused = responses.find((r) => r.statusCode === 429)!;
    expect(refused.json().error.message).toMatch(/too fast.*Try again in \d+ seconds/);
    // Another sender's limit is their own.
    const reply = await post(
      two,
      `/api/mailbox/conversations/${sender.id}/messages`,
      { body: 'hi', clientId: randomUUID() },
      { cookie: others[0].cookie },
    );
    expect(reply.statusCode).toBe(201);
  });
});

describe('the limiter itself', () => {
  it('a window that ended starts again at 1; ended windows are swept, open ones kept', async () => {
    const database = await openTestDatabase();
    try {
      const limits = createRateLimits(database.db);
      const ended = `test:ended:${randomUUID()}`;
      const open = `test:open:${randomUUID()}`;
      expect((await limits.hit(ended, 60_000)).count).toBe(1);
      expect((await limits.hit(ended, 60_000)).count).toBe(2);
      await database.db.execute(sql`update rate_limit_hit set reset_at = now() - interval '1 second' where key = ${ended}`);
      expect((await limits.read(ended)).count).toBe(0);
      const again = await limits.hit(ended, 60_000);
      expect(again.count).toBe(1);
      expect(again.ttlMs).toBeGreaterThan(59_000);
      expect(again.ttlMs).toBeLessThanOrEqual(60_000);

      await limits.hit(open, 60_000);
      await database.db.execute(sql`update rate_limit_hit set reset_at = now() - interval '1 second' where key = ${ended}`);
      await limits.sweep();
      const keys = await rowsOf<{ key: string }>(database.db, sql`select key from rate_limit_hit where key in (${ended}, ${open})`);
      expect(keys.map((k) => k.key)).toEqual([open]);
    } finally {
      await database.close();
    }
  });

  it('a process sweeps by itself beside its first hit', async () => {
    const database = await openTestDatabase();
    try {
      const stale = `test:stale:${randomUUID()}`;
      await database.db.execute(sql`insert into rate_limit_hit (key, count, reset_at) values (${stale}, 3, now() - interval '1 minute')`);
      await createRateLimits(database.db).hit(`test:other:${randomUUID()}`, 1000);
      await expect
        .poll(async () => (await rowsOf(database.db, sql`select 1 from rate_limit_hit where key = ${stale}`)).length, { timeout: 5000 })
        .toBe(0);
    } finally {
      await database.close();
    }
  });
});
