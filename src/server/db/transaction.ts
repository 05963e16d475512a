import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/** An open transaction (or savepoint): what a step that runs inside its caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The database or a transaction: for reads and writes that work either way. */
export type Conn = Db | Tx;

/** The rows of a raw SQL statement run on a connection or transaction. */
export async function rowsOf<T>(conn: Conn, query: SQL): Promise<T[]> {
  const res = (await conn.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
