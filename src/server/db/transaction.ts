import type { Db } from './client.js';

/** An open transaction (or savepoint): what a step that runs inside its caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The database or a transaction: for reads and writes that work either way. */
export type Conn = Db | Tx;
