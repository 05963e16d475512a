import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db/client.js';
import { ADVISORY_LOCKS } from '../../../src/server/db/locks.js';
import { tempDir } from '../../support/app.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/**
 * Migrations exactly once (issue 24 item 2, ADR 0062): instances that open one empty
 * database at the same moment take turns under an advisory lock, so each migration is
 * applied once and none fails on a table another made; `npm run migrate` does the same for
 * a deploy pipeline, and an app started with MIGRATE_ON_START=false leaves the schema alone
 * and says (readiness) whether it is current.
 */
const usesPostgres = !!inject('databaseUrl');
const JOURNAL = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: { tag: string }[] };

const made: RunDatabase[] = [];
/** An empty database (no template): nothing migrated yet. */
async function emptyDatabase(): Promise<RunDatabase> {
  const run = await createRunDatabase('agora_migrate', '');
  if ('error' in run) throw new Error(run.error);
  made.push(run);
  return run;
}
afterAll(async () => {
  for (const run of made) await run.drop();
});

async function appliedMigrations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    return rows[0].n;
  } finally {
    await client.end();
  }
}

function runMigrateCommand(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe.skipIf(!usesPostgres)('migrations on PostgreSQL', () => {
  it('three instances opening one empty database at the same moment all come up, and each migration is applied once', async () => {
    const run = await emptyDatabase();
    const opened = await Promise.allSettled(
      Array.from({ length: 3 }, () => openDatabase({ url: run.url, dataDir: tempDir(), poolSize: 2 })),
    );
    const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    try {
      expect(
        opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : [])),
        'no instance fails',
      ).toEqual([]);
      for (const d of databases) expect(await d.schemaCurrent()).toBe(true);
      expect(await appliedMigrations(run.url)).toBe(JOURNAL.entries.length);
    } finally {
      await Promise.all(databases.map((d) => d.close()));
    }
  });

  it('npm run migrate applies every migration and exits 0; run again, it has nothing to do', async () => {
    const run = await emptyDatabase();
    const first = await runMigrateCommand({ DATABASE_URL: run.url });
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/schema is current/);
    expect(await appliedMigrations(run.url)).toBe(JOURNAL.entries.length);
    const again = await runMigrateCommand({ DATABASE_URL: run.url });
    expect(again.code, again.out).toBe(0);
    expect(await appliedMigrations(run.url)).toBe(JOURNAL.entries.length);
  });

  it('npm run migrate fails with a clear message and exit 1 when the database cannot be reached', async () => {
    const res = await runMigrateCommand({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/migrations failed: .*ECONNREFUSED|migrations failed: .*connect/i);
  });

  it('with migrate: false (MIGRATE_ON_START=false) nothing is applied and the schema reads as not current, until migrated', async () => {
    const run = await emptyDatabase();
    const lazy = await openDatabase({ url: run.url, dataDir: tempDir(), poolSize: 1, migrate: false });
    try {
      expect(await lazy.schemaCurrent()).toBe(false);
      const res = await runMigrateCommand({ DATABASE_URL: run.url });
      expect(res.code, res.out).toBe(0);
      expect(await lazy.schemaCurrent()).toBe(true);
    } finally {
      await lazy.close();
    }
  });

  it('the advisory lock excludes a second holder and is free again when the first ends (even by an error)', async () => {
    const run = await emptyDatabase();
    const [a, b] = await Promise.all([1, 2].map(() => openDatabase({ url: run.url, dataDir: tempDir(), poolSize: 2, migrate: false })));
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const first = a.withLock(ADVISORY_LOCKS.demoSeed, () => held);
      // Wait until the first holds it.
      let second: Awaited<ReturnType<Database['withLock']>> = { acquired: true, value: undefined };
      for (let i = 0; i < 100 && second.acquired; i++) {
        second = await b.withLock(ADVISORY_LOCKS.demoSeed, async () => undefined, { wait: false });
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(second.acquired).toBe(false);
      release();
      expect((await first).acquired).toBe(true);
      await expect(a.withLock(ADVISORY_LOCKS.demoSeed, () => Promise.reject(new Error('seed failed')))).rejects.toThrow('seed failed');
      const after = await b.withLock(ADVISORY_LOCKS.demoSeed, async () => 'ran', { wait: false });
      expect(after).toEqual({ acquired: true, value: 'ran' });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

// PGlite (one process, no lock: withLock just runs its work): the PGlite smoke (tests/smoke) starts
// the server on it, makes the demo through those locks, and finds readiness 'current'.
