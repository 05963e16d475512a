import { createServer } from 'node:net';
import pg from 'pg';

/**
 * What the test runs, the fleet and the benches share to start servers and databases on this
 * machine: a free port, and statements on the local PostgreSQL's maintenance database. No
 * vitest import, so benches may use it.
 */

/** The maintenance database of the local PostgreSQL the test runs create their databases on. */
export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement on the maintenance database (CREATE or DROP DATABASE ...). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
