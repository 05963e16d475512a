import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { openDatabase, type Database } from '../../src/server/db/client.js';
import { TEST_PASSWORD_HASH_COST } from './test-data.js';

export type TestApp = FastifyInstance;

export interface TestAppOptions {
  /** Runs after the app is built and before it is ready (extra routes, hooks). */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * On PGlite the apps of a test file share one database unless this is set; on
   * PostgreSQL every app has its own pool on the run's database anyway.
   */
  ownDatabase?: boolean;
  /** An already opened database the app uses and does not close (the test closes it). */
  database?: Database;
}

let sharedPglite: Promise<Database> | null = null;

/** A new temp directory under the run's temp root. */
export function tempDir(prefix = 'data-'): string {
  return mkdtempSync(path.join(inject('tmpRoot'), prefix));
}

/** The configuration tests run with; overrides are environment variables as strings. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: tempDir(),
    DATABASE_URL: inject('databaseUrl') ?? undefined,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // High by default so failed sign-ins of unrelated tests never add up to a limit;
    // the rate-limit tests set it low explicitly.
    AUTH_RATE_LIMIT: '1000',
    // Cheap hashes (refused in production: a production-mode app hashes at the default).
    ...(overrides.NODE_ENV === 'production' ? {} : { PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST }),
    ...overrides,
  });
}

/** The whole application, ready for app.inject(); close it in afterAll. */
export async function buildTestApp(overrides: Record<string, string | undefined> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  let database = options.database;
  if (!database && !config.databaseUrl && !options.ownDatabase) {
    sharedPglite ??= openDatabase({ dataDir: tempDir('pglite-') });
    database = await sharedPglite;
  }
  const app = await buildApp({ config, database });
  await options.beforeReady?.(app);
  await app.ready();
  return app;
}

/** What a test file shares: its app, set in beforeAll (read the fields inside hooks and tests). */
export interface AppContext {
  app: TestApp;
}

/** Builds one app for the test file in beforeAll and closes it in afterAll. */
export function useTestApp(overrides: Record<string, string | undefined> = {}, options: TestAppOptions = {}): AppContext {
  const ctx = {} as AppContext;
  beforeAll(async () => {
    ctx.app = await buildTestApp(overrides, options);
  });
  afterAll(async () => {
    await ctx.app?.close();
  });
  return ctx;
}

/** A database of its own for this test (on the run's PostgreSQL, or a new PGlite). */
export function openTestDatabase(): Promise<Database> {
  const url = inject('databaseUrl');
  return openDatabase(url ? { url, dataDir: tempDir(), poolSize: 2 } : { dataDir: tempDir('pglite-') });
}
