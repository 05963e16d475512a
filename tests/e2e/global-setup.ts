import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OUTPUT, startAppServer } from './app-server';
import { startOidcProvider } from './oidc-provider';
import { createRunDatabase } from '../support/run-database';
import { ensureServerBundle } from '../support/server-command';

/**
 * Once per run: a fresh PostgreSQL database (PGlite when no PostgreSQL is reachable), the
 * local OIDC provider, the built web app and the real server as a child process. The
 * returned function is the teardown: it stops both servers and drops the database.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (process.env.AGORA_TEST_PGLITE === '1') {
    console.log('  end-to-end tests on PGlite (AGORA_TEST_PGLITE=1)');
    return null;
  }
  const db = await createRunDatabase('agora_e2e');
  if ('error' in db) {
    console.warn(`  no PostgreSQL reachable (${db.error}): end-to-end tests run on PGlite`);
    return null;
  }
  console.log(`  end-to-end tests on PostgreSQL, database ${db.name} (dropped at the end)`);
  return db;
}

/** Newest modification time of the files under a directory. */
function newest(dir: string): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return max;
}

/** Builds the web app when there is no build, or when its sources changed since. */
function ensureWebBuild() {
  const index = path.join(ROOT, 'dist/web/index.html');
  const stale =
    !existsSync(index) || Math.max(newest(path.join(ROOT, 'src/web')), newest(path.join(ROOT, 'src/shared'))) > statSync(index).mtimeMs;
  if (!stale) return;
  console.log('  building the web app (npx vite build)');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT);
  const oidcPort = Number(process.env.E2E_OIDC_PORT);
  if (!port || !oidcPort) throw new Error('E2E_PORT and E2E_OIDC_PORT are set by playwright.config.ts');
  mkdirSync(OUTPUT, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agora-e2e-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  const teardown = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };

  try {
    const database = await createDatabase();
    if (database) cleanups.push(database.drop);

    const oidc = await startOidcProvider(oidcPort);
    cleanups.push(oidc.stop);

    ensureWebBuild();
    ensureServerBundle();

    const server = await startAppServer({
      port,
      databaseUrl: database?.url ?? '',
      dataDir,
      oidcUrl: oidc.url,
      seedDemo: true,
      logName: 'e2e-server.log',
    });
    cleanups.push(server.stop);
    // For specs that start a second instance on the same database (mailbox-two-servers.spec.ts):
    // the workers inherit this environment.
    process.env.E2E_DATABASE_URL = database?.url ?? '';
    process.env.E2E_DATA_DIR = dataDir;
    process.env.E2E_OIDC_URL = oidc.url;
    console.log(`  Agora at http://localhost:${port}, OIDC provider at ${oidc.url} (server log: .test-output/e2e-server.log)`);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
