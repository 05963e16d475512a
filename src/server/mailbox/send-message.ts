import { sql } from 'drizzle-orm';
import type { MailboxMessage, SendMessageInput } from '../../shared/mailbox-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import { cantMessage, iso, notYourself, rowsOf } from './access.js';
import { publishUnreadChanged } from './unread.js';

/** The send-rate window (seconds); the limit per window is config.mailboxSendLimit. */
export const SEND_WINDOW_SECONDS = 60;

interface SendRow {
  other_exists: boolean;
  blocked: boolean;
  rate_count: number | null;
  rate_reset_at: string | Date | null;
  replay_id: string | null;
  replay_with: string | null;
  replay_body: string | null;
  replay_created_at: string | Date | null;
  id: string | null;
  created_at: string | Date | null;
}

/**
 * Sends a message to `otherId`. `clientId` (the sender's uuid for this send) makes a retry
 * idempotent: the same clientId answers the stored message, never a second one.
 *
 * One statement does the checks and the writes (docs/decisions/0015-mailbox.md): the
 * rate-limit count, the replay lookup, the other person and the blocks, the conversation
 * upsert (its row lock orders the messages of one conversation: ids are drawn under it,
 * so a reader's `after` cursor never skips one committed late), its two members when new,
 * and the message.
 */
export async function sendMessage(
  app: AppServices,
  viewer: Viewer,
  otherId: string,
  input: SendMessageInput,
): Promise<{ message: MailboxMessage; created: boolean }> {
  const me = viewer.user.id;
  notYourself(me, otherId);
  const [low, high] = me < otherId ? [me, otherId] : [otherId, me];
  const limit = app.config.mailboxSendLimit;
  const rateKey = `mailbox-send:${me}`;

  const committed = await app.mailboxEvents.transaction(app.database.db, async (tx, announce) => {
    const [row] = await rowsOf<SendRow>(
      tx,
      sql`
      with replay as (
        select m.id, m.body, m.created_at, cm.other_user_id as with_id
        from message m left join conversation_member cm on cm.conversation_id = m.conversation_id and cm.user_id = ${me}
        where m.sender_id = ${me} and m.client_id = ${input.clientId}
      ),
      other as (select id from "user" where id = ${otherId}),
      blocked as (
        select 1 from user_block
        where (blocker_id = ${me} and blocked_id = ${otherId}) or (blocker_id = ${otherId} and blocked_id = ${me})
        limit 1
      ),
      rate as (
        insert into rate_limit_hit (key, count, reset_at)
        select ${rateKey}::text, 1, now() + make_interval(secs => ${SEND_WINDOW_SECONDS})
        where not exists (select 1 from replay) and exists (select 1 from other) and not exists (select 1 from blocked)
        on conflict (key) do update set
          count = case when rate_limit_hit.reset_at <= now() then 1 else rate_limit_hit.count + 1 end,
          reset_at = case when rate_limit_hit.reset_at <= now() then excluded.reset_at else rate_limit_hit.reset_at end
        returning count, reset_at
      ),
      conv as (
        insert into conversation (user_low, user_high, last_message_at)
        select ${low}::uuid, ${high}::uuid, now() from rate where rate.count <= ${limit}
        on conflict (user_low, user_high) do update set last_message_at = excluded.last_message_at
        returning id, (xmax = 0) as created
      ),
      members as (
        insert into conversation_member (conversation_id, user_id, other_user_id)
        select id, ${me}::uuid, ${otherId}::uuid from conv where created
        union all
        select id, ${otherId}::uuid, ${me}::uuid from conv where created
        on conflict do nothing
      ),
      msg as (
        insert into message (conversation_id, sender_id, body, client_id)
        select id, ${me}::uuid, ${input.body}, ${input.clientId}::uuid from conv
        on conflict (sender_id, client_id) do nothing
        returning id, created_at
      )
      select exists (select 1 from other) as other_exists, exists (select 1 from blocked) as blocked,
        rate.count as rate_count, rate.reset_at as rate_reset_at,
        replay.id as replay_id, replay.with_id as replay_with, replay.body as replay_body, replay.created_at as replay_created_at,
        msg.id, msg.created_at
      from (select 1) one left join rate on true left join replay on true left join msg on true`,
    );
    if (row.replay_id) {
      if (row.replay_with !== otherId) throw clientIdTaken();
      return { id: String(row.replay_id), body: row.replay_body!, createdAt: iso(row.replay_created_at!), created: false };
    }
    if (!row.other_exists) throw AppError.notFound('This person does not exist');
    if (row.blocked) throw cantMessage();
    if (row.rate_count !== null && Number(row.rate_count) > limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.rate_reset_at!).getTime() - Date.now()) / 1000));
      throw new AppError(429, 'rate_limited', `You are sending messages too fast. Try again in ${retryAfterSeconds} seconds.`, {
        retryAfterSeconds,
      });
    }
    if (!row.id) {
      // The same clientId sent twice at once: the other send stored it; answer that one.
      const [again] = await rowsOf<{ id: string; body: string; created_at: string | Date; with_id: string }>(
        tx,
        sql`select m.id, m.body, m.created_at, cm.other_user_id as with_id
            from message m join conversation_member cm on cm.conversation_id = m.conversation_id and cm.user_id = ${me}
            where m.sender_id = ${me} and m.client_id = ${input.clientId}`,
      );
      if (!again || again.with_id !== otherId) throw clientIdTaken();
      return { id: String(again.id), body: again.body, createdAt: iso(again.created_at), created: false };
    }
    const id = String(row.id);
    await announce('message.sent', { messageId: id, senderId: me, recipientId: otherId });
    return { id, body: input.body, createdAt: iso(row.created_at!), created: true };
  });

  const { id, body, createdAt, created } = committed.value;
  if (created) {
    const cursor = id;
    await Promise.all([
      app.realtime.publish(otherId, { type: 'message.new', messageId: id, conversationWith: me, cursor }),
      app.realtime.publish(me, { type: 'message.new', messageId: id, conversationWith: otherId, cursor }),
      publishUnreadChanged(app, otherId),
    ]);
  }
  return { message: { id, senderId: me, body, clientId: input.clientId, createdAt }, created };
}

const clientIdTaken = () =>
  new AppError(409, 'client_id_taken', 'This clientId was already used for another message', {
    fields: { clientId: 'already used for another message' },
  });
