import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { account, educator, user } from '../db/schema/accounts.js';

export const DEMO_PASSWORD = 'Agora-demo-2026';

export const DEMO_USERS = [
  { email: 'ada@agora.local', firstName: 'Ada', lastName: 'Lovelace', city: 'London', birthdate: '1990-12-10', educator: null },
  {
    email: 'grace@agora.local',
    firstName: 'Grace',
    lastName: 'Hopper',
    city: 'New York',
    birthdate: '1985-12-09',
    educator: {
      bio: 'Computer scientist and teacher. I make programming approachable for everyone.',
      headline: 'Programming for curious beginners',
      subjects: ['Programming', 'Mathematics'],
    },
  },
  { email: 'alan@agora.local', firstName: 'Alan', lastName: 'Turing', city: 'Manchester', birthdate: '1992-06-23', educator: null },
  // The demo admin (the admin console at /admin).
  { email: 'admin@agora.local', firstName: 'Agora', lastName: 'Admin', city: null, birthdate: null, educator: null, role: 'admin' },
] as const;

/**
 * A small demo data set on first start (an empty user table), so a newcomer finds
 * something to look at. All demo accounts are verified and share DEMO_PASSWORD.
 */
export async function seedDemoData(app: FastifyInstance): Promise<boolean> {
  const db = app.database.db;
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(user);
  if (count > 0) return false;
  const ctx = await app.auth.$context;
  const hash = await ctx.password.hash(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    for (const d of DEMO_USERS) {
      const [u] = await tx
        .insert(user)
        .values({
          email: d.email,
          name: `${d.firstName} ${d.lastName}`,
          firstName: d.firstName,
          lastName: d.lastName,
          city: d.city,
          birthdate: d.birthdate,
          emailVerified: true,
          role: 'role' in d ? d.role : 'user',
        })
        .returning({ id: user.id });
      await tx.insert(account).values({ accountId: u.id, providerId: 'credential', userId: u.id, password: hash });
      if (d.educator) await tx.insert(educator).values({ userId: u.id, ...d.educator, subjects: [...d.educator.subjects] });
    }
  });
  app.log.info(`demo data created: ${DEMO_USERS.map((u) => u.email).join(', ')} (password ${DEMO_PASSWORD})`);
  return true;
}
