import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_PASSWORD_HASH_COST } from '../support/test-data';
import { serverCommand } from '../support/server-command';

/**
 * The real server as a child process (`node --import tsx src/server/main.ts`, as `npm start`
 * runs it), configured for the end-to-end suite. The global setup starts the run's server
 * with it; a spec that needs a second instance on the same database starts one the same way.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
export const OUTPUT = path.join(ROOT, '.test-output');

export interface AppServerOptions {
  port: number;
  /** '' = embedded PGlite under dataDir. */
  databaseUrl: string;
  dataDir: string;
  oidcUrl: string;
  seedDemo: boolean;
  /** Under .test-output/. */
  logName: string;
}

export interface AppServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
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

/**
 * The server listens before it seeds the demo (its payments go through the sandbox over HTTP):
 * wait until the demo's clubs, seeded last, are on the landing page, so every spec sees the demo.
 */
async function waitForDemo(url: string, child: ChildProcess, timeoutMs = 5 * 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const r = await fetch(`${url}/api/landing`);
      if (r.ok && ((await r.json()) as { featuredClubs?: unknown[] }).featuredClubs?.length) return;
    } catch {
      /* not answering yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the demo data did not appear at ${url}/api/landing`);
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

/** Starts the server on localhost:port and resolves once /api/health answers. */
export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const url = `http://localhost:${opts.port}`;
  const logFile = path.join(OUTPUT, opts.logName);
  const log = createWriteStream(logFile);
  const server = spawn(...serverCommand(), {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(opts.port),
      HOST: 'localhost',
      PUBLIC_URL: url,
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: opts.dataDir,
      SEED_DEMO: String(opts.seedDemo),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      // Not the default (10): a page that wrote a fee of its own instead of the server's would show 10%.
      PLATFORM_FEE_PERCENT: '12',
      SMTP_URL: '',
      GOOGLE_CLIENT_ID: 'agora-e2e',
      GOOGLE_CLIENT_SECRET: 'agora-e2e-secret',
      GOOGLE_DISCOVERY_URL: `${opts.oidcUrl}/.well-known/openid-configuration`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopProcess(server);
    log.end();
  };
  try {
    await waitForHealth(`${url}/api/health`, server, logFile);
    if (opts.seedDemo) await waitForDemo(url, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, logFile, stop };
}
