import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOidcProvider } from './oidc-provider';
import { createRunDatabase } from '../support/run-database';

/**
 * Once per run: a fresh PostgreSQL database (PGlite when no PostgreSQL is reachable), the
 * local OIDC provider, the built web app and the real server as a child process. The
 * returned function is the teardown: it stops both servers and drops the database.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUTPUT = path.join(ROOT, '.test-output');

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

// Generous: start-up on a busy machine can take minutes; the wait ends as soon as it is healthy or exits.
async function waitForHealth(url: string, child: ChildProcess, logFile: string, timeoutMs = 5 * 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  throw new Error(
    `the server did not become healthy at ${url}${child.exitCode !== null ? ` (exited with ${child.exitCode})` : ''}\n${log}`,
  );
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
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

    const logFile = path.join(OUTPUT, 'e2e-server.log');
    const log = createWriteStream(logFile);
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: 'localhost',
        PUBLIC_URL: `http://localhost:${port}`,
        DATABASE_URL: database?.url ?? '',
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '1000',
        SMTP_URL: '',
        GOOGLE_CLIENT_ID: 'agora-e2e',
        GOOGLE_CLIENT_SECRET: 'agora-e2e-secret',
        GOOGLE_DISCOVERY_URL: `${oidc.url}/.well-known/openid-configuration`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.pipe(log);
    server.stderr!.pipe(log);
    const killOnExit = () => server.kill('SIGKILL');
    process.once('exit', killOnExit);
    cleanups.push(async () => {
      process.off('exit', killOnExit);
      await stopProcess(server);
      log.end();
    });

    await waitForHealth(`http://localhost:${port}/api/health`, server, logFile);
    console.log(`  Agora at http://localhost:${port}, OIDC provider at ${oidc.url} (server log: .test-output/e2e-server.log)`);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
