import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import type { BlockList } from '../../shared/mailbox-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import { iso, otherPerson, personOf, rowsOf } from './access.js';

/** Blocks (no messages either way) and reports of messages (kept for the admin console). */

export async function blockUser(app: AppServices, viewer: Viewer, otherId: string): Promise<void> {
  const db = app.database.db;
  await otherPerson(db, viewer.user.id, otherId);
  await db.execute(sql`insert into user_block (blocker_id, blocked_id) values (${viewer.user.id}, ${otherId}) on conflict do nothing`);
  // Both sides' open conversations re-read: the composer goes, the neutral state shows.
  await Promise.all([
    app.realtime.publish(otherId, { type: 'mailbox.blocks', with: viewer.user.id }),
    app.realtime.publish(viewer.user.id, { type: 'mailbox.blocks', with: otherId }),
  ]);
}

export async function unblockUser(app: AppServices, viewer: Viewer, otherId: string): Promise<void> {
  const db = app.database.db;
  await otherPerson(db, viewer.user.id, otherId);
  await db.execute(sql`delete from user_block where blocker_id = ${viewer.user.id} and blocked_id = ${otherId}`);
  await Promise.all([
    app.realtime.publish(otherId, { type: 'mailbox.blocks', with: viewer.user.id }),
    app.realtime.publish(viewer.user.id, { type: 'mailbox.blocks', with: otherId }),
  ]);
}

export async function listBlocks(app: AppServices, viewer: Viewer): Promise<BlockList> {
  const rows = await rowsOf<{ id: string; name: string; image: string | null; created_at: string | Date }>(
    app.database.db,
    sql`select u.id, u.name, u.profile_image as image, b.created_at from user_block b join ${people} u on u.id = b.blocked_id
        where b.blocker_id = ${viewer.user.id} order by b.created_at desc`,
  );
  return { items: rows.map((r) => ({ user: personOf(r), blockedAt: iso(r.created_at) })) };
}

/**
 * Reports a message the viewer received. Only a member of its conversation may (anyone
 * else: 404, as if it did not exist); reporting it again replaces the reason.
 */
export async function reportMessage(app: AppServices, viewer: Viewer, messageId: string, reason: string): Promise<void> {
  const me = viewer.user.id;
  const db = app.database.db;
  const [m] = await rowsOf<{ sender_id: string }>(
    db,
    sql`select m.sender_id from message m
        join conversation_member cm on cm.conversation_id = m.conversation_id and cm.user_id = ${me}
        where m.id = ${messageId}`,
  );
  if (!m) throw AppError.notFound('This message does not exist');
  if (m.sender_id === me)
    throw new AppError(400, 'invalid_input', "You can't report your own message", {
      fields: { messageId: "You can't report your own message" },
    });
  await db.execute(sql`
    insert into message_report (message_id, reporter_id, reason) values (${messageId}, ${me}, ${reason})
    on conflict (message_id, reporter_id) do update set reason = excluded.reason, created_at = now()`);
}
