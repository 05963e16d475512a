import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHit } from '../../../src/server/db/schema/accounts.js';
import type { Database } from '../../../src/server/db/client.js';
import { DomainEvents } from '../../../src/server/events/domain-events.js';
import { openTestDatabase } from '../../support/app.js';

/**
 * The domain-event mechanism on a real database: in-transaction listeners commit (or roll
 * back) with the announcing change; follow-ups and after-commit listeners run once it is
 * committed, and their failure never undoes it. (A plain table stands in for a domain's.)
 */
type TestEvents = { 'thing.happened': { event: { key: string }; reply: string } };

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function bus() {
  const errors: string[] = [];
  const events = new DomainEvents<TestEvents>({ error: (_obj, msg) => errors.push(msg) });
  return { events, errors };
}
const rowOf = async (key: string) => (await database.db.select().from(rateLimitHit).where(eq(rateLimitHit.key, key)))[0] ?? null;
const write = (key: string, count: number) => ({ key, count, resetAt: new Date(Date.now() + 60_000) });

describe('domain events', () => {
  it('an in-transaction listener commits with the change; its follow-up and the after-commit listeners see it committed, in order', async () => {
    const { events, errors } = bus();
    const key = `event-${randomUUID()}`;
    const seen: string[] = [];
    events.inTransaction('thing.happened', async (tx, e) => {
      await tx.insert(rateLimitHit).values(write(`${e.key}:listener`, 1));
      return async () => {
        seen.push(`follow-up saw ${(await rowOf(`${e.key}:listener`))?.count}`);
        return 'from the follow-up';
      };
    });
    events.afterCommit('thing.happened', async (e) => {
      seen.push(`after commit saw ${(await rowOf(e.key))?.count}`);
      return 'from after commit';
    });
    const done = await events.transaction(database.db, async (tx, announce) => {
      await tx.insert(rateLimitHit).values(write(key, 7));
      await announce('thing.happened', { key });
      seen.push('work done');
      return 42;
    });
    expect(done.value).toBe(42);
    expect(seen).toEqual(['work done', 'follow-up saw 1', 'after commit saw 7']);
    expect(done.replies('thing.happened')).toEqual(['from the follow-up', 'from after commit']);
    expect(errors).toEqual([]);
  });

  it('an in-transaction listener that throws rolls the whole change back, and nothing runs after', async () => {
    const { events } = bus();
    const key = `event-${randomUUID()}`;
    let after = 0;
    events.inTransaction('thing.happened', async () => {
      throw new Error('refused');
    });
    events.afterCommit('thing.happened', async () => {
      after++;
    });
    await expect(
      events.transaction(database.db, async (tx, announce) => {
        await tx.insert(rateLimitHit).values(write(key, 1));
        await announce('thing.happened', { key });
      }),
    ).rejects.toThrow('refused');
    expect(await rowOf(key)).toBeNull();
    expect(after).toBe(0);
  });

  it('an after-commit listener that fails is logged; the change stays and the next listener still runs', async () => {
    const { events, errors } = bus();
    const key = `event-${randomUUID()}`;
    events.afterCommit('thing.happened', async () => {
      throw new Error('mail server down');
    });
    events.afterCommit('thing.happened', async () => 'still told');
    const done = await events.transaction(database.db, async (tx, announce) => {
      await tx.insert(rateLimitHit).values(write(key, 3));
      await announce('thing.happened', { key });
    });
    expect((await rowOf(key))?.count).toBe(3);
    expect(done.replies('thing.happened')).toEqual(['still told']);
    expect(errors).toHaveLength(1);
  });
});
