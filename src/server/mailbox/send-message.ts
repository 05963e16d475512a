import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { MailboxMessage, SendMessageInput } from '../../shared/mailbox-schemas.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type ViewerRow } from '../accounts/viewer.js';
import { people } from '../accounts/people.js';
import { hitSql } from '../accounts/rate-limits.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import { enqueueJobSql } from '../jobs/queue.js';
import { presentSql } from '../realtime/presence.js';
import { cantMessage, iso, notYourself, rowsOf } from './access.js';
import { UNREAD_MESSAGES_CHANGED } from './unread.js';
import { UNREAD_REMINDER_DELAY_SECONDS, UNREAD_REMINDER_JOB, UNREAD_REMINDER_KEY_PREFIX } from './unread-reminder.js';

/** The send-rate window (seconds); the limit per window is config.mailboxSendLimit. */
export const SEND_WINDOW_SECONDS = 60;

/** The limit given to a send's second try, already admitted by its first (the largest int4). */
const ADMITTED = 2 ** 31 - 1;

/** The viewer's columns (null when the token signs nobody in) and the send's outcome. */
type SendRow = Partial<ViewerRow> & {
  other_exists: boolean;
  blocked: boolean;
  rate_count: number | string | null;
  rate_ttl_ms: number | string | null;
  allowed: boolean;
  replay_id: string | null;
  replay_with: string | null;
  replay_body: string | null;
  replay_created_at: string | Date | null;
  message_id: string | null;
  created_at: string | Date | null;
  me_present: boolean;
  other_present: boolean;
};

type SendValues = {
  token: string;
  other: string;
  clientId: string;
  body: string;
  limit: number;
  windowSeconds: number;
  /** 1, or 0 on the second try of a send whose first try already counted (and admitted) it. */
  countBy: number;
  reminderJob: string;
  reminderDelay: number;
  reminderKeyPrefix: string;
};

/** The send statement (sendMessage explains it), its values named (the prepared statement's placeholders). */
function sendShape(value: (name: keyof SendValues) => SQL | Placeholder): SQL {
  // The sender: whoever the session token signs in (not banned), read in this statement.
  const v = (name: keyof SendValues | 'me' | 'low' | 'high'): SQL | Placeholder =>
    name === 'me'
      ? sql`(select id from viewer where not banned)`
      : name === 'low'
        ? sql`least(${v('me')}, ${value('other')}::uuid)`
        : name === 'high'
          ? sql`greatest(${v('me')}, ${value('other')}::uuid)`
          : value(name);
  return sql`
      with viewer as (${viewerBySessionToken(value('token'))}),
      replay as (
        select m.id, m.body, m.created_at, cm.other_user_id as with_id
        from message m left join conversation_member cm on cm.conversation_id = m.conversation_id and cm.user_id = ${v('me')}
        where m.sender_id = ${v('me')} and m.client_id = ${v('clientId')}
      ),
      other as (select id from ${people} u where id = ${v('other')}),
      blocked as (
        select 1 from user_block
        where (blocker_id = ${v('me')} and blocked_id = ${v('other')}) or (blocker_id = ${v('other')} and blocked_id = ${v('me')})
        union all
        -- A deleted (or banned) account receives nothing: it cannot read it.
        select 1 from ${people} u where id = ${v('other')} and banned
        limit 1
      ),
      checked as (
        select 1 as one where ${v('me')} <> ${v('other')}::uuid and not exists (select 1 from replay) and exists (select 1 from other)
          and not exists (select 1 from blocked)
      ),
      rate as (${hitSql(sql`'mailbox.send:' || ${v('me')}::text`, v('windowSeconds'), v('countBy'), sql`checked`)}),
      ok as (select 1 as one from rate where rate.count <= ${v('limit')}),
      existing as (select conversation_id as id from conversation_member where user_id = ${v('me')} and other_user_id = ${v('other')}),
      created as (
        insert into conversation (user_low, user_high)
        select ${v('low')}::uuid, ${v('high')}::uuid from ok where not exists (select 1 from existing)
        on conflict (user_low, user_high) do nothing
        returning id
      ),
      members as (
        insert into conversation_member (conversation_id, user_id, other_user_id)
        select id, ${v('me')}::uuid, ${v('other')}::uuid from created
        union all
        select id, ${v('other')}::uuid, ${v('me')}::uuid from created
      ),
      conv as (select id from existing union all select id from created),
      locked as (select id, pg_advisory_xact_lock(hashtextextended(id::text, 0)) as l from conv, ok),
      msg as (
        insert into message (conversation_id, sender_id, body, client_id)
        select id, ${v('me')}::uuid, ${v('body')}, ${v('clientId')}::uuid from locked
        on conflict (sender_id, client_id) do nothing
        returning id, created_at
      ),
      reminder as (${enqueueJobSql({
        kind: v('reminderJob'),
        payload: sql`jsonb_build_object('recipientId', ${v('other')}::text, 'senderId', ${v('me')}::text)`,
        runAt: sql`now() + make_interval(secs => ${v('reminderDelay')})`,
        key: sql`${v('reminderKeyPrefix')} || ${v('other')}::text || ':' || ${v('me')}::text`,
        from: sql`msg`,
      })})
      select exists (select 1 from other) as other_exists, exists (select 1 from blocked) as blocked,
        rate.count as rate_count, rate.ttl_ms as rate_ttl_ms, exists (select 1 from ok) as allowed,
        replay.id as replay_id, replay.with_id as replay_with, replay.body as replay_body, replay.created_at as replay_created_at,
        msg.id as message_id, msg.created_at, ${presentSql(v('me'))} as me_present, ${presentSql(v('other'))} as other_present,
        viewer.*
      from (select 1) as one left join rate on true left join replay on true left join msg on true left join viewer on true`;
}
/** Built once: the prepared statement's text never changes, only its values. */
const SEND_PREPARED = sendShape((name) => sql.placeholder(name));

/**
 * Sends a message to `otherId`. `clientId` (the sender's uuid for this send) makes a retry
 * idempotent: the same clientId answers the stored message, never a second one.
 *
 * One statement does the checks and the writes (docs/decisions/0019-mailbox.md): the
 * sender (the session token's user, not banned: read here rather than in a statement of its
 * own, as the course page does; nothing is written without one), the replay lookup, the other person and the blocks, the send rate (counted once the other
 * checks pass, on the sender's row of the shared limiter: one atomic upsert, so concurrent
 * sends from any instance never pass the limit; ADR 0057), the
 * conversation (created with its two members on the first message), a transaction-scoped
 * advisory lock on it (ids are drawn under it, so a reader's `after` cursor never skips a
 * message committed late), the message, and the "still unread?" reminder (a keyed job,
 * stored only when none is queued for this recipient and sender: unread-reminder.ts), and
 * which of the two has a realtime socket open somewhere (the pushes go to them only).
 * Nothing else is written for a send: the notification list derives its "new message"
 * entries from the unread state (ADR 0029).
 */
export async function sendMessage(
  app: AppServices,
  requireViewerWith: RequireViewerWith,
  otherId: string,
  input: SendMessageInput,
): Promise<{ message: MailboxMessage; created: boolean }> {
  const limit = app.config.mailboxSendLimit;

  const db = app.database.db;
  // The checks and the writes are one statement on its own (autocommit: nothing joins it).
  const sent = await (async () => {
    const { viewer, data } = await requireViewerWith(async (token) => {
      let found: SendRow | undefined;
      // Twice at most: a first message to someone raced by theirs finds the conversation the second time.
      for (let attempt = 0; attempt < 2; attempt++) {
        const values: SendValues = {
          token,
          other: otherId,
          clientId: input.clientId,
          body: input.body,
          // The second try was admitted by the first (its count was within the limit): sends
          // counted since then must not refuse it.
          limit: attempt === 0 ? limit : ADMITTED,
          windowSeconds: SEND_WINDOW_SECONDS,
          countBy: attempt === 0 ? 1 : 0,
          reminderJob: UNREAD_REMINDER_JOB,
          reminderDelay: UNREAD_REMINDER_DELAY_SECONDS,
          reminderKeyPrefix: UNREAD_REMINDER_KEY_PREFIX,
        };
        // One statement, autocommit: prepared, its text built once.
        [found] = await app.database.prepared<SendRow>('mailbox.send', SEND_PREPARED, values);
        if (!found.allowed || found.message_id || found.replay_id) break;
      }
      return { viewer: found?.id ? toViewer(found as ViewerRow) : null, data: found! };
    });
    const me = viewer.user.id;
    notYourself(me, otherId);
    const row = data;
    if (row.replay_id) {
      if (row.replay_with !== otherId) throw clientIdTaken();
      return { me, id: String(row.replay_id), body: row.replay_body!, createdAt: iso(row.replay_created_at!), created: false };
    }
    if (!row.other_exists) throw AppError.notFound('This person does not exist');
    if (row.blocked) throw cantMessage();
    if (!row.allowed && Number(row.rate_count) > limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil(Number(row.rate_ttl_ms) / 1000));
      throw new AppError(429, 'rate_limited', `You are sending messages too fast. Try again in ${retryAfterSeconds} seconds.`, {
        retryAfterSeconds,
      });
    }
    if (!row.message_id) {
      // The same clientId sent twice at once: the other send stored it; answer that one.
      const [again] = await rowsOf<{ id: string; body: string; created_at: string | Date; with_id: string }>(
        db,
        sql`select m.id, m.body, m.created_at, cm.other_user_id as with_id
            from message m join conversation_member cm on cm.conversation_id = m.conversation_id and cm.user_id = ${me}
            where m.sender_id = ${me} and m.client_id = ${input.clientId}`,
      );
      if (!again || again.with_id !== otherId) throw clientIdTaken();
      return { me, id: String(again.id), body: again.body, createdAt: iso(again.created_at), created: false };
    }
    const id = String(row.message_id);
    const present = { me: row.me_present, other: row.other_present };
    return { me, id, body: input.body, createdAt: iso(row.created_at!), created: true, present };
  })();

  const { me, id, body, createdAt, created } = sent;
  const present = 'present' in sent ? sent.present : undefined;
  if (created && present) {
    // Pushed after the commit, and awaited before the answer (publish never throws): once the
    // sender is told 201, the events are numbered and in the realtime log, so a socket that
    // reconnects (this process killed or not) is replayed them (ADR 0061). Only to whoever
    // has a socket open somewhere or closed moments ago (the statement read it: presence.ts):
    // most recipients are not online, and a push nobody hears still costs a NOTIFY.
    const cursor = id;
    const events: Parameters<typeof app.realtime.publishMany>[0] = [];
    if (present.other)
      events.push([otherId, { type: 'message.new', messageId: id, conversationWith: me, cursor }], [otherId, UNREAD_MESSAGES_CHANGED]);
    if (present.me) events.push([me, { type: 'message.new', messageId: id, conversationWith: otherId, cursor }]);
    if (events.length) await app.realtime.publishMany(events);
  }
  return { message: { id, senderId: me, body, clientId: input.clientId, createdAt }, created };
}

const clientIdTaken = () =>
  new AppError(409, 'client_id_taken', 'This clientId was already used for another message', {
    fields: { clientId: 'already used for another message' },
  });
