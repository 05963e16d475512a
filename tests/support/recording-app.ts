import { afterAll, beforeAll, expect, inject } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.js';
import { buildTestApp, tempDir, type TestApp } from './app.js';

export interface RecordingApp {
  app: TestApp;
  database: Database;
  /**
   * The SQL statements `run` makes, once it answered `status` (fire-and-forget work such as
   * a session touch lands here too: it is let settle first).
   */
  statementsOf(run: () => Promise<{ statusCode: number; body: string }>, status?: number): Promise<string[]>;
}

/**
 * A test app on a database of its own whose every query can be recorded: for tests that count
 * the statements a request makes (no N+1, one round trip). Built before the file's own hooks.
 */
export function useRecordingApp(overrides: Record<string, string | undefined> = {}): RecordingApp {
  let queries: string[] = [];
  let recording = false;
  const ctx = {
    async statementsOf(run, status = 200) {
      queries = [];
      recording = true;
      try {
        const res = await run();
        await new Promise((r) => setTimeout(r, 50));
        expect(res.statusCode, res.body).toBe(status);
      } finally {
        recording = false;
      }
      return queries;
    },
  } as RecordingApp;
  beforeAll(async () => {
    const url = inject('databaseUrl');
    const onQuery = (q: string) => {
      if (recording) queries.push(q);
    };
    ctx.database = await openDatabase(url ? { url, dataDir: tempDir(), poolSize: 4, onQuery } : { dataDir: tempDir('pglite-'), onQuery });
    ctx.app = await buildTestApp(overrides, { database: ctx.database });
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}
