import { sql, type SQL } from 'drizzle-orm';
import { people } from '../accounts/people.js';

/**
 * The notification list's "new message" entries (ADR 0029): one per conversation with
 * messages the viewer has not read, derived from the mailbox's unread state when the list is
 * read; nothing is written per message. Its id is the conversation's id; it says how many
 * messages wait and shows the newest; it exists while they are unread (reading the conversation,
 * or marking the entry read, which reads the conversation, ends it).
 *
 * The columns are the stored notification's (id, type, data, read_at, created_at), so the two
 * sources are one list in one statement (notifications/notification-service.ts). The mailbox
 * publishes these fragments: its tables are its own (ADR 0035).
 */

/** A message's text as a notice shows it. */
export const preview = (body: string) => (body.length > 140 ? `${body.slice(0, 139)}…` : body);

const PREVIEW = (body: SQL) => sql`case when length(${body}) > 140 then left(${body}, 139) || '…' else ${body} end`;

/** The viewer's new-message entries (`conversationId`: that one only). */
export function unreadConversationNotices(userId: string, conversationId?: string): SQL {
  return sql`
    select cm.conversation_id as id, 'new_message'::text as type,
      jsonb_build_object('senderId', cm.other_user_id, 'senderName', trim(u.first_name || ' ' || u.last_name),
        'messageId', newest.id::text, 'preview', ${PREVIEW(sql`newest.body`)}, 'count', unread.n) as data,
      null::timestamptz as read_at, newest.created_at
    from conversation_member cm
    join lateral (
      select m.id, m.body, m.created_at from message m
      where m.conversation_id = cm.conversation_id and m.id > cm.read_up_to and m.sender_id = cm.other_user_id
      order by m.id desc limit 1
    ) newest on true
    join lateral (
      select count(*)::int as n from message m
      where m.conversation_id = cm.conversation_id and m.id > cm.read_up_to and m.sender_id = cm.other_user_id
    ) unread on true
    join ${people} u on u.id = cm.other_user_id
    where cm.user_id = ${userId} ${conversationId ? sql`and cm.conversation_id = ${conversationId}` : sql``}`;
}

/**
 * One conversation's entry once nothing in it is unread (its detail page opened later): read,
 * showing the other person's last message.
 */
export function readConversationNotice(userId: string, conversationId: string): SQL {
  return sql`
    select cm.conversation_id as id, 'new_message'::text as type,
      jsonb_build_object('senderId', cm.other_user_id, 'senderName', trim(u.first_name || ' ' || u.last_name),
        'messageId', last.id::text, 'preview', ${PREVIEW(sql`last.body`)}) as data,
      coalesce(last.created_at, c.created_at) as read_at, coalesce(last.created_at, c.created_at) as created_at
    from conversation_member cm
    join conversation c on c.id = cm.conversation_id
    join ${people} u on u.id = cm.other_user_id
    left join lateral (
      select m.id, m.body, m.created_at from message m
      where m.conversation_id = cm.conversation_id and m.sender_id = cm.other_user_id
      order by m.id desc limit 1
    ) last on true
    where cm.user_id = ${userId} and cm.conversation_id = ${conversationId}`;
}
