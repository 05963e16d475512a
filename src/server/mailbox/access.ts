import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import { CANT_MESSAGE, type MailboxPerson } from '../../shared/mailbox-schemas.js';
import { rowsOf, type Conn } from '../db/transaction.js';

export { rowsOf };
import { AppError } from '../http/errors.js';

/** Who may talk to whom: the other person exists, is not the viewer, and no block stands either way. */

export interface Blocks {
  byMe: boolean;
  byThem: boolean;
}

export const iso = (value: string | Date) => new Date(value).toISOString();

export const personOf = (row: { id: string; name: string; image: string | null }): MailboxPerson => ({
  id: row.id,
  name: row.name,
  profileImage: row.image || DEFAULT_AVATAR,
});

export function notYourself(viewerId: string, otherId: string) {
  if (viewerId === otherId)
    throw new AppError(400, 'invalid_input', "You can't message yourself", { fields: { userId: "You can't message yourself" } });
}

/** The other person and the blocks between them and the viewer (one query), or a 404. */
export async function otherPerson(conn: Conn, viewerId: string, otherId: string): Promise<{ person: MailboxPerson; blocks: Blocks }> {
  notYourself(viewerId, otherId);
  const [row] = await rowsOf<{ id: string; name: string; image: string | null; by_me: boolean; by_them: boolean }>(
    conn,
    sql`select u.id, u.name, u.profile_image as image,
          exists (select 1 from user_block where blocker_id = ${viewerId} and blocked_id = u.id) as by_me,
          (u.banned or exists (select 1 from user_block where blocker_id = u.id and blocked_id = ${viewerId})) as by_them
        from ${people} u where u.id = ${otherId}`,
  );
  if (!row) throw AppError.notFound('This person does not exist');
  return { person: personOf(row), blocks: { byMe: row.by_me, byThem: row.by_them } };
}

export const cantMessage = () => new AppError(403, 'cant_message', CANT_MESSAGE);
