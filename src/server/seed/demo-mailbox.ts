import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { user } from '../db/schema/accounts.js';
import { conversation, conversationMember, message } from '../db/schema/mailbox.js';

/**
 * Conversations in the demo mailboxes (issue 23.10), so Ada and Grace find people to talk
 * to: questions about a course, a club, a payment; some read, some waiting. Written as the
 * mailbox stores a send (one conversation per pair, the lower id first, members' read
 * positions), with times over the last days. Only when the mailbox is empty.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface DemoConversation {
  a: string;
  b: string;
  /** [sender (a or b), text, how long ago in ms]; oldest first. */
  lines: ['a' | 'b', string, number][];
  /** b has read everything (otherwise b's last messages from a wait unread). */
  bRead: boolean;
}

const CONVERSATIONS: DemoConversation[] = [
  {
    a: 'ada@agora.local',
    b: 'grace@agora.local',
    bRead: true,
    lines: [
      ['a', 'Hi Grace! Is Python for Curious Beginners all right for someone who has never programmed?', 3 * DAY],
      ['b', 'Absolutely: the first class starts from "what is a variable". Bring a laptop and curiosity.', 3 * DAY - 2 * HOUR],
      ['a', 'Wonderful. Will the classes be recorded in case I miss one?', 2 * DAY],
      ['b', 'Yes, the recording goes up the next morning, and you can ask me questions here any time.', 2 * DAY - 30 * MINUTE],
      ['a', 'Thank you, see you on Thursday!', 20 * HOUR],
    ],
  },
  {
    a: 'maya@agora.local',
    b: 'ada@agora.local',
    bRead: false,
    lines: [
      ['a', 'Hello Ada, I saw you in the chess club. Do you fancy a game before Thursday’s chess night?', 6 * HOUR],
      ['a', 'I am free on Wednesday evening, near King’s Cross.', 5 * HOUR],
    ],
  },
  {
    a: 'alan@agora.local',
    b: 'ada@agora.local',
    bRead: true,
    lines: [
      ['a', 'Welcome to the runners! We meet at the bridge at 7:00 sharp.', 1 * DAY],
      ['b', 'Thanks Alan, I will be there. Is 6:00 per km slow for the group?', 1 * DAY - HOUR],
      ['a', 'Not at all, we have a group at that pace.', 1 * DAY - 50 * MINUTE],
    ],
  },
  {
    a: 'noah@agora.local',
    b: 'grace@agora.local',
    bRead: false,
    lines: [
      ['a', 'Hi Grace, I pay Python for Curious Beginners in two installments. When is the second one taken?', 4 * HOUR],
      ['a', 'And can I still drop before the first class if something comes up?', 3 * HOUR],
    ],
  },
  {
    a: 'arjun@agora.local',
    b: 'grace@agora.local',
    bRead: true,
    lines: [
      ['a', 'Is there parking near 120 Broadway for the website workshop?', 5 * DAY],
      ['b', 'There is a garage on Pine Street; the subway is easier though (Wall St station).', 5 * DAY - HOUR],
      ['a', 'Great, thanks!', 5 * DAY - 40 * MINUTE],
    ],
  },
];

export async function seedDemoMailbox(app: FastifyInstance): Promise<number> {
  const db = app.database.db;
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(conversation);
  if (n > 0) return 0;
  const emails = [...new Set(CONVERSATIONS.flatMap((c) => [c.a, c.b]))];
  const people = await db.select({ id: user.id, email: user.email }).from(user).where(inArray(user.email, emails));
  const idOf = new Map(people.map((p) => [p.email, p.id]));
  let made = 0;
  const now = Date.now();
  await db.transaction(async (tx) => {
    for (const c of CONVERSATIONS) {
      const a = idOf.get(c.a);
      const b = idOf.get(c.b);
      if (!a || !b) continue;
      const [low, high] = a < b ? [a, b] : [b, a];
      const [conv] = await tx
        .insert(conversation)
        .values({ userLow: low, userHigh: high, createdAt: new Date(now - c.lines[0][2]) })
        .returning({ id: conversation.id });
      const ids: { id: number; from: string }[] = [];
      for (const [who, body, ago] of c.lines) {
        const senderId = who === 'a' ? a : b;
        const [m] = await tx
          .insert(message)
          .values({ conversationId: conv.id, senderId, body, clientId: randomUUID(), createdAt: new Date(now - ago) })
          .returning({ id: message.id });
        ids.push({ id: m.id, from: senderId });
      }
      const last = ids[ids.length - 1].id;
      // a has read everything (a wrote last, or read b's answer); b has read up to their own last message unless bRead.
      const bOwn = ids.filter((m) => m.from === b).at(-1)?.id ?? 0;
      await tx.insert(conversationMember).values([
        { conversationId: conv.id, userId: a, otherUserId: b, readUpTo: last },
        { conversationId: conv.id, userId: b, otherUserId: a, readUpTo: c.bRead ? last : bOwn },
      ]);
      made++;
    }
  });
  if (made > 0) app.log.info(`demo mailbox: ${made} conversations`);
  return made;
}
