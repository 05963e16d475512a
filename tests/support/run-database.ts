import { randomBytes } from 'node:crypto';
import { ADMIN_URL, adminQuery } from './local-services.js';

export interface RunDatabase {
  name: string;
  url: string;
  /** Drops the database (every connection closed by force); a failure is only reported. */
  drop(): Promise<void>;
}

/**
 * Set by the API suite's global setup: a database with every migration applied, which
 * createRunDatabase copies (CREATE DATABASE ... TEMPLATE, ~0.5 s) instead of leaving the
 * migrations to the first connection (~2-6 s each). Nothing may connect to it.
 */
export const TEMPLATE_ENV = 'AGORA_TEST_TEMPLATE_DATABASE';

/**
 * A fresh database for one test run (API or end to end), or the reason none could be made (no
 * PostgreSQL reachable: the caller falls back to PGlite and says so). Empty, or a copy of the
 * migrated template when `template` is given or TEMPLATE_ENV names one: either way, opening it
 * applies the migrations it lacks.
 */
export async function createRunDatabase(
  prefix: string,
  template: string | undefined = process.env[TEMPLATE_ENV],
): Promise<RunDatabase | { error: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  try {
    await adminQuery(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      adminQuery(`drop database if exists "${name}" with (force)`).catch((err) => {
        console.warn(`  could not drop test database ${name}: ${(err as Error).message}`);
      }),
  };
}
