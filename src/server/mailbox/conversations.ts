import { sql } from 'drizzle-orm';
import {
  CONVERSATIONS_PAGE_DEFAULT,
  ERASED_MESSAGE,
  THREAD_PAGE_DEFAULT,
  type ConversationList,
  type MailboxMessage,
  type ConversationPage,
} from '../../shared/mailbox-schemas.js';
import { people } from '../accounts/people.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { iso, otherPerson, personOf, rowsOf } from './access.js';
import { publishUnreadChanged, unreadMessages } from './unread.js';
import { likePattern } from '../db/like-pattern.js';

interface MessageRow {
  id: string;
  sender_id: string;
  body: string;
  client_id: string;
  created_at: string | Date;
}

const present = (m: MessageRow): MailboxMessage => ({
  id: String(m.id),
  senderId: m.sender_id,
  body: m.body,
  clientId: m.client_id,
  createdAt: iso(m.created_at),
});

/**
 * The conversation with `otherId`, a page of messages oldest first: the newest page, or the page
 * before / after a message id (cursors). A person with no conversation yet: an empty conversation.
 */
export async function getConversation(
  app: AppServices,
  viewer: Viewer,
  otherId: string,
  query: { before?: string; after?: string; limit?: number },
): Promise<ConversationPage> {
  const db = app.database.db;
  const me = viewer.user.id;
  const { person, blocks } = await otherPerson(db, me, otherId);
  const limit = query.limit ?? THREAD_PAGE_DEFAULT;
  const [conv] = await rowsOf<{ conversation_id: string; their_read: string | number }>(
    db,
    sql`select mine.conversation_id, theirs.read_up_to as their_read
        from conversation_member mine
        join conversation_member theirs on theirs.conversation_id = mine.conversation_id and theirs.user_id = ${otherId}
        where mine.user_id = ${me} and mine.other_user_id = ${otherId}`,
  );
  const base = { with: person, canMessage: !blocks.byMe && !blocks.byThem, blockedByMe: blocks.byMe };
  if (!conv) return { ...base, messages: [], hasOlder: false, hasNewer: false, theirReadUpTo: '0' };

  const cols = sql`id, sender_id, body, client_id, created_at`;
  let rows: MessageRow[];
  let hasOlder: boolean;
  let hasNewer: boolean;
  if (query.after) {
    rows = await rowsOf<MessageRow>(
      db,
      sql`select ${cols} from message where conversation_id = ${conv.conversation_id} and id > ${query.after} order by id limit ${limit + 1}`,
    );
    hasNewer = rows.length > limit;
    rows = rows.slice(0, limit);
    hasOlder = true;
  } else {
    rows = await rowsOf<MessageRow>(
      db,
      query.before
        ? sql`select ${cols} from message where conversation_id = ${conv.conversation_id} and id < ${query.before} order by id desc limit ${limit + 1}`
        : sql`select ${cols} from message where conversation_id = ${conv.conversation_id} order by id desc limit ${limit + 1}`,
    );
    hasOlder = rows.length > limit;
    rows = rows.slice(0, limit).reverse();
    hasNewer = !!query.before;
  }
  return { ...base, messages: rows.map(present), hasOlder, hasNewer, theirReadUpTo: String(conv.their_read) };
}

/**
 * Marks the conversation with `otherId` read up to `upTo` (default: its newest message). The
 * read position only moves forward. Tells the other side (read receipts) and the viewer's
 * tabs (unread badge) when it moved.
 */
export async function markRead(
  app: AppServices,
  viewer: Viewer,
  otherId: string,
  upTo?: string,
): Promise<{ readUpTo: string; unread: number }> {
  const db = app.database.db;
  const me = viewer.user.id;
  await otherPerson(db, me, otherId);
  const [row] = await rowsOf<{ before: string | number; after: string | number }>(
    db,
    sql`with target as (
          select cm.conversation_id, cm.read_up_to as before,
            (select coalesce(max(m.id), 0) from message m
              where m.conversation_id = cm.conversation_id ${upTo ? sql`and m.id <= ${upTo}` : sql``}) as newest
          from conversation_member cm where cm.user_id = ${me} and cm.other_user_id = ${otherId}
          for update
        ),
        moved as (
          update conversation_member cm set read_up_to = target.newest from target
          where cm.user_id = ${me} and cm.other_user_id = ${otherId} and target.newest > cm.read_up_to
          returning cm.read_up_to
        )
        select target.before, coalesce((select read_up_to from moved), target.before) as after from target`,
  );
  const unread = await unreadMessages(db, me);
  if (!row) return { readUpTo: '0', unread };
  const after = String(row.after);
  if (after !== String(row.before)) {
    // Listeners (notifications: the "new message" notice of this sender is read too) run before the badge is told.
    await app.mailboxEvents.announceCommitted(db, 'conversation.read', { readerId: me, otherId, upTo: after });
    await Promise.all([app.realtime.publish(otherId, { type: 'message.read', by: me, upTo: after }), publishUnreadChanged(app, me)]);
  }
  return { readUpTo: after, unread };
}

/**
 * A page of the viewer's conversations, newest activity first, each with the other person,
 * the last message and the unread count; `q` keeps those whose other person's name or any
 * message contains it (trigram indexes, case-insensitive), over all of them.
 *
 * The cursor is the last message id of the page's last conversation: message ids are unique
 * and a conversation's last id only grows, so the order is total and a page never repeats
 * one shown above it. A conversation that gets a message meanwhile moves to the top (the
 * list re-reads its first page on `message.new`), not into a later page.
 */
export async function listConversations(
  app: AppServices,
  viewer: Viewer,
  query: { q?: string; cursor?: string; limit?: number } = {},
): Promise<ConversationList> {
  const me = viewer.user.id;
  const pattern = query.q ? likePattern(query.q) : null;
  const limit = query.limit ?? CONVERSATIONS_PAGE_DEFAULT;
  const rows = await rowsOf<{
    other_id: string;
    name: string;
    image: string | null;
    last_id: string | null;
    last_body: string | null;
    last_sender: string | null;
    last_at: string | Date | null;
    unread: string | number;
  }>(
    app.database.db,
    sql`select u.id as other_id, u.name, u.profile_image as image,
          lm.id as last_id, lm.body as last_body, lm.sender_id as last_sender, lm.created_at as last_at,
          (select count(*) from message x
            where x.conversation_id = cm.conversation_id and x.id > cm.read_up_to and x.sender_id <> ${me}) as unread
        from conversation_member cm
        join ${people} u on u.id = cm.other_user_id
        left join lateral (
          select id, left(body, 200) as body, sender_id, created_at from message
          where conversation_id = cm.conversation_id order by id desc limit 1
        ) lm on true
        where cm.user_id = ${me} and lm.id is not null ${query.cursor ? sql`and lm.id < ${query.cursor}` : sql``}
        ${
          pattern
            ? sql`and (u.name ilike ${pattern} or exists (
                select 1 from message s where s.conversation_id = cm.conversation_id and s.body ilike ${pattern}))`
            : sql``
        }
        order by lm.id desc
        limit ${limit + 1}`,
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    nextCursor: more ? String(page[page.length - 1].last_id) : null,
    items: page.map((r) => ({
      with: personOf({ id: r.other_id, name: r.name, image: r.image }),
      lastMessage: r.last_id
        ? {
            id: String(r.last_id),
            preview: r.last_body === '' ? ERASED_MESSAGE : r.last_body!.replace(/\s+/g, ' ').trim().slice(0, 140),
            fromMe: r.last_sender === me,
            createdAt: iso(r.last_at!),
          }
        : null,
      unread: Number(r.unread),
    })),
  };
}
