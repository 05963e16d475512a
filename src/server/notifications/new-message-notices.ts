import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Tx } from '../db/transaction.js';
import { notify, type Notified } from './notify.js';

interface Sent {
  messageId: string;
  senderId: string;
  recipientId: string;
}

interface Group {
  recipientId: string;
  senderId: string;
  /** Ids of the messages it stands for, ascending. */
  ids: string[];
}

/**
 * The "new message" notices, written in batches after the sends committed (ADR 0019):
 * a send no longer opens a transaction for its notice. Sends that commit while a batch is
 * being written wait for the next one, so under load one transaction writes the notices of
 * many sends, and the messages of one sender to one recipient fold into one notify call
 * ("3 new messages from Ada" grows by 3 in one statement). A send's answer waits for the
 * batch holding its notice (so the notice exists once the send answered, as before).
 *
 * A message the recipient has already read by the time its batch runs (read positions are
 * locked `for share`, so a read and a batch never interleave) gets no notice. What is lost:
 * the notices of sends whose process died between the send's commit and its batch (a few
 * milliseconds); the message itself and the unread badge (counted from messages) are not.
 */
export function createNewMessageNotices(app: AppServices) {
  let pending = new Map<string, Group>();
  let waiters: (() => void)[] = [];
  let running: Promise<void> | null = null;

  const runBatch = async (groups: Group[]) => {
    const done: Notified[] = [];
    await app.database.db.transaction(async (tx) => {
      // Stable order: two processes' batches lock the same rows in the same order.
      groups.sort((a, b) => (a.recipientId + a.senderId < b.recipientId + b.senderId ? -1 : 1));
      const facts = await factsOf(tx, groups);
      for (const g of groups) {
        const f = facts.get(`${g.recipientId}:${g.senderId}`);
        if (!f) continue;
        const unread = g.ids.filter((id) => BigInt(id) > BigInt(f.readUpTo));
        if (!unread.length) continue;
        const data = {
          senderId: g.senderId,
          senderName: f.senderName,
          messageId: unread[unread.length - 1],
          preview: f.lastBody === null ? undefined : f.lastBody.length > 140 ? `${f.lastBody.slice(0, 139)}…` : f.lastBody,
          ...(unread.length > 1 && { count: unread.length }),
        };
        done.push(await notify(app, g.recipientId, 'new_message', data, { conn: tx }));
      }
    });
    for (const n of done) await n.afterCommit();
  };

  const loop = async () => {
    while (pending.size) {
      const groups = [...pending.values()];
      const release = waiters;
      pending = new Map();
      waiters = [];
      try {
        await runBatch(groups);
      } catch (err) {
        app.log.error({ err, notices: groups.length }, 'new-message notices could not be written');
      }
      for (const resolve of release) resolve();
    }
    running = null;
  };

  return {
    /** Writes the notice of a committed message (in the next batch); resolves once written. */
    add(sent: Sent): Promise<void> {
      const key = `${sent.recipientId}:${sent.senderId}`;
      const group = pending.get(key);
      if (group) group.ids.push(sent.messageId);
      else pending.set(key, { recipientId: sent.recipientId, senderId: sent.senderId, ids: [sent.messageId] });
      const written = new Promise<void>((resolve) => waiters.push(resolve));
      running ??= Promise.resolve().then(loop);
      return written;
    },
  };
}

/** Per group: the sender's name, the newest message's text, and the recipient's read position (held for share). */
async function factsOf(tx: Tx, groups: Group[]) {
  const pairs = groups.map((g) => sql`(${g.recipientId}::uuid, ${g.senderId}::uuid, ${g.ids[g.ids.length - 1]}::bigint)`);
  const res = (await tx.execute(sql`
    select p.recipient_id, p.sender_id, cm.read_up_to,
      trim(u.first_name || ' ' || u.last_name) as sender_name, m.body as last_body
    from (values ${sql.join(pairs, sql`, `)}) as p (recipient_id, sender_id, last_id)
    join conversation_member cm on cm.user_id = p.recipient_id and cm.other_user_id = p.sender_id
    join "user" u on u.id = p.sender_id
    left join message m on m.id = p.last_id
    order by p.recipient_id, p.sender_id
    for share of cm`)) as unknown as {
    rows: { recipient_id: string; sender_id: string; read_up_to: string | number; sender_name: string; last_body: string | null }[];
  };
  return new Map(
    res.rows.map((r) => [
      `${r.recipient_id}:${r.sender_id}`,
      { readUpTo: String(r.read_up_to), senderName: r.sender_name || 'A learner', lastBody: r.last_body },
    ]),
  );
}
