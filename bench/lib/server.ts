import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup.js';
import pg from 'pg';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/seed/demo-users.js';
import { createBenchDatabase } from './database.js';
import { freePort } from '../../tests/support/local-services.js';

export { freePort };

export interface RunningServer {
  baseUrl: string;
  port: number;
  pid: number;
  /** The server's recent output, for error messages. */
  logTail(): string;
}

/**
 * The real server (src/server/main.ts through tsx) in a child process, so the load
 * generator never shares its event loop. Resolves once /api/health answers 200.
 */
export async function startServer(opts: {
  root: string;
  port: number;
  env: Record<string, string>;
  /** Extra node options (say, --cpu-prof: not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}): Promise<RunningServer> {
  const baseUrl = `http://localhost:${opts.port}`;
  // `node --import tsx` is what the tsx CLI runs, minus its extra wrapper process: one pid to stop.
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', 'src/server/main.ts'], {
    cwd: opts.root,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const logTail = () => lines.join('\n');
  onCleanup(`stop the server (pid ${child.pid})`, () => stopChild(child));

  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited with ${signal ?? `code ${code}`}`));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`the server ${exited} before it was ready:\n${logTail()}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within 90 s:\n${logTail()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, port: opts.port, pid: child.pid!, logTail };
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  // Generous: a server started with --cpu-prof writes its profile as it exits (seconds for a long run).
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await gone;
  clearTimeout(timer);
}

export interface Session {
  cookie: string;
  userId: string;
}

/** Signs in through the public API (as the web app does) and returns the cookie and user id. */
export async function signIn(server: RunningServer, email: string, password: string): Promise<Session> {
  const res = await fetch(`${server.baseUrl}/api/accounts/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!cookie) throw new Error('sign-in answered 200 without a session cookie');

  const me = await fetch(`${server.baseUrl}/api/me`, { headers: { cookie } });
  if (me.status !== 200) throw new Error(`GET /api/me with the new cookie answered ${me.status}: ${await me.text()}`);
  const body = (await me.json()) as { id?: string; email?: string };
  if (!body.id || body.email !== email) throw new Error(`GET /api/me returned an unexpected user: ${JSON.stringify(body)}`);
  return { cookie, userId: body.id };
}

/**
 * A bench server on a fresh port with its own data directory (removed at the end), talking
 * to the bench's database: the environment every bench starts the app with, plus `env`.
 */
export async function startBenchServer(opts: {
  name: string;
  root: string;
  databaseUrl: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `agora-bench-${opts.name}-`));
  onCleanup(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  return startServer({
    root: opts.root,
    port,
    nodeArgs: opts.nodeArgs,
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: dataDir,
      BENCH_ROUTES: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  });
}

/**
 * What a seeding bench starts with: the header line, a fresh PostgreSQL database, the server
 * on it, the demo learner's session and a connection for the seed (closed at the end).
 */
export async function startSeedingBench(opts: {
  name: string;
  title: string;
  root: string;
  load: { connections: number; seconds: number; rounds: number; warmupSeconds: number };
  /** Extra node options for the server. */
  nodeArgs?: string[];
}) {
  console.log(
    `Agora ${opts.title} bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(
    `Load: ${opts.load.connections} connections, warm-up ${opts.load.warmupSeconds} s, then ${opts.load.rounds} interleaved rounds of ${opts.load.seconds} s per route\n`,
  );
  const loadBefore = os.loadavg()[0];
  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the ${opts.title} bench needs PostgreSQL: ${database.reason}`);
  console.log(`Database: PostgreSQL, fresh database ${database.name} (dropped at the end)`);
  const server = await startBenchServer({ name: opts.name, root: opts.root, databaseUrl: database.url, nodeArgs: opts.nodeArgs });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl}`);
  const session = await signIn(server, DEMO_USERS[0].email, DEMO_PASSWORD);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  onCleanup('close the seed connection', () => client.end());
  return { loadBefore, database, server, session, client };
}

/**
 * Sessions for many users at once, written in SQL beside one real sign-in (`template`):
 * each user gets a copy of the template's session row with its own token, and a cookie
 * signed as the auth library signs it (HMAC-SHA256 of the token with the server's
 * AUTH_SECRET, which the bench set). Signing in thousands of users through the API would
 * spend minutes in password hashing; what the benches measure starts after the sign-in.
 */
export async function sessionsFor(client: pg.Client, template: Session, userIds: string[], secret: string): Promise<Session[]> {
  const [name, value] = template.cookie.split(';')[0].split('=');
  const templateToken = decodeURIComponent(value).split('.')[0];
  const tokens = userIds.map(() => randomBytes(24).toString('base64url'));
  await client.query(
    `insert into session (token, user_id, expires_at, ip_address, user_agent, created_at, updated_at)
     select t.token, t.user_id, s.expires_at, s.ip_address, s.user_agent, now(), now()
     from unnest($1::text[], $2::uuid[]) as t (token, user_id), session s where s.token = $3`,
    [tokens, userIds, templateToken],
  );
  return userIds.map((userId, i) => {
    const signature = createHmac('sha256', secret).update(tokens[i]).digest('base64');
    return { userId, cookie: `${name}=${encodeURIComponent(`${tokens[i]}.${signature}`)}` };
  });
}
