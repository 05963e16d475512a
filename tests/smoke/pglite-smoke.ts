import { randomUUID } from 'node:crypto';
/**
 * One smoke pass of the real server on embedded PGlite (the `npm start` default):
 * a fresh data directory, migrations, demo data, sign-in, the current user, page rules.
 * Prints one line per check and a final `SMOKE {"passed":n,"failed":m}` line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverCommand } from '../support/server-command.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'agora-smoke-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  PUBLIC_URL: base,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'pretty',
  SEED_DEMO: 'true',
};
delete env.DATABASE_URL;
delete env.SMTP_URL;
const server = spawn(...serverCommand(), { env, stdio: ['ignore', 'pipe', 'pipe'] });
/**
 * What the server logged at warn or above (LOG_LEVEL=warn: it logs nothing else): a clean run
 * logs none, and the last check fails on any (a TypeError caught and logged as a warning once
 * hid a bug here: the session was never extended on PGlite).
 */
const logged: string[] = [];
for (const stream of [server.stdout, server.stderr]) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    process.stdout.write(chunk);
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (/^\[[\d:.]+\] (WARN|ERROR|FATAL):/.test(line)) logged.push(line);
  });
}
let exited = false;
server.once('exit', () => (exited = true));

/**
 * Polls until `probe` holds, while the server runs. The ceiling is generous: on a busy
 * machine (load 12 on 2 cores) start-up takes minutes, and a passing run never waits for it.
 */
async function waitUntil(probe: () => Promise<boolean>, ceilingMs: number, everyMs: number): Promise<boolean> {
  const until = Date.now() + ceilingMs;
  while (!exited && Date.now() < until) {
    if (await probe().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

let passed = 0;
let failed = 0;
async function check(name: string, fn: () => Promise<void>) {
  try {
    await fn();
    passed++;
    console.log(`  ✓ ${name}`);
  } catch (err) {
    failed++;
    console.log(`  ✗ ${name}: ${err instanceof Error ? err.message : err}`);
  }
}
function expect(cond: unknown, message: string) {
  if (!cond) throw new Error(message);
}

try {
  await waitUntil(() => fetch(`${base}/api/health`).then((r) => r.ok), 5 * 60_000, 250);
  console.log('PGlite smoke:');
  await check('the server starts on PGlite and reports healthy', async () => {
    const r = await fetch(`${base}/api/health`);
    const body = await r.json();
    expect(r.status === 200 && body.database === 'pglite', `health ${r.status} ${JSON.stringify(body)}`);
  });
  await check('liveness answers, and readiness finds every migration applied (issue 24)', async () => {
    const live = await fetch(`${base}/api/health/live`);
    const ready = await fetch(`${base}/api/health/ready`);
    const body = await ready.json();
    expect(
      live.status === 200 && ready.status === 200 && body.migrations === 'current',
      `live ${live.status}, ready ${ready.status} ${JSON.stringify(body)}`,
    );
  });
  let cookie = '';
  await check('the demo user can sign in', async () => {
    const r = await fetch(`${base}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'ada@agora.local', password: 'Agora-demo-2026' }),
    });
    expect(r.status === 200, `sign-in answered ${r.status}`);
    cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie.includes('session_token'), 'no session cookie');
  });
  await check('GET /api/me returns the signed-in user', async () => {
    const r = await fetch(`${base}/api/me`, { headers: { cookie } });
    const me = await r.json();
    expect(r.status === 200 && me.email === 'ada@agora.local', `me ${r.status}`);
  });
  let paidCourse: { id: string; priceCents: number } | null = null;
  await check('the demo courses are there to find (seeded after the server listens)', async () => {
    // The paid course is published before Ada is enrolled in the free one: wait for both.
    let enrolled = false;
    await waitUntil(
      async () => {
        const r = await fetch(`${base}/api/courses/search?q=python`, { headers: { cookie } });
        const body = await r.json();
        paidCourse = body.items?.find((c: { title: string }) => c.title === 'Python for Curious Beginners') ?? null;
        const dash = await (await fetch(`${base}/api/dashboard`, { headers: { cookie } })).json();
        enrolled = JSON.stringify(dash).includes('Mathematics of Everyday Life');
        return !!paidCourse && enrolled;
      },
      3 * 60_000,
      500,
    );
    expect(paidCourse && paidCourse.priceCents === 12000, 'demo course "Python for Curious Beginners" not found');
    expect(enrolled, 'Ada is not enrolled in the free demo course');
  });
  await check('the payments sandbox opens a checkout for a demo paid course on PGlite', async () => {
    expect(paidCourse, 'no demo paid course');
    const summary = await (await fetch(`${base}/api/course/${paidCourse!.id}/checkout`, { headers: { cookie } })).json();
    const r = await fetch(`${base}/api/stripe/course-embedded-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify({ customer: summary.customer, course: paidCourse!.id, session: summary.session.id, price: summary.priceCents }),
    });
    const body = await r.json();
    expect(
      r.status === 200 && /^cs_test_/.test(body.sessionId) && body.sandboxUrl?.startsWith('/sandbox/checkout/'),
      `checkout ${r.status} ${JSON.stringify(body)}`,
    );
    const form = await fetch(`${base}${body.sandboxUrl}`);
    expect(form.status === 200 && (await form.text()).includes('Card number'), `sandbox form ${form.status}`);
  });
  await check('a message to the educator is sent and read back (the send statement reads the session itself)', async () => {
    const course = await (await fetch(`${base}/api/courses/${paidCourse!.id}`, { headers: { cookie } })).json();
    const to = course.educator.userId;
    const sent = await fetch(`${base}/api/mailbox/conversations/${to}/messages`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Hello from the smoke test', clientId: randomUUID() }),
    });
    expect(sent.status === 201, `send ${sent.status} ${await sent.clone().text()}`);
    const thread = await (await fetch(`${base}/api/mailbox/conversations/${to}`, { headers: { cookie } })).json();
    expect(
      thread.messages?.some((m: { body: string }) => m.body === 'Hello from the smoke test'),
      `thread ${JSON.stringify(thread).slice(0, 200)}`,
    );
  });
  await check('club search finds a demo club by one word (the postings)', async () => {
    // The demo clubs are seeded after the whole catalogue, once the server listens: on a busy
    // machine (load 15 on 2 cores) that once took more than two minutes after the courses
    // could be found, so the ceiling is the start-up's own.
    let last = '';
    const found = await waitUntil(
      async () => {
        const r = await fetch(`${base}/api/clubs/search?q=chess`, { headers: { cookie } });
        last = `${r.status} ${(await r.text()).slice(0, 200)}`;
        return r.status === 200 && last.includes('London Chess Evenings');
      },
      5 * 60_000,
      500,
    );
    expect(found, `club search ${last}`);
  });
  await check('the landing page is served', async () => {
    const r = await fetch(`${base}/`);
    expect(r.status === 200 && (await r.text()).includes('<div id="root">'), `landing ${r.status}`);
  });
  await check('a protected page redirects to /login without a session', async () => {
    const r = await fetch(`${base}/dashboard`, { redirect: 'manual' });
    expect(
      r.status === 302 && r.headers.get('location') === '/login?next=%2Fdashboard',
      `dashboard ${r.status} ${r.headers.get('location')}`,
    );
  });
  await check('an unknown page answers 404', async () => {
    const r = await fetch(`${base}/no-such-page`);
    expect(r.status === 404, `unknown ${r.status}`);
  });
  await check('the server logged no warning and no error', async () => {
    expect(logged.length === 0, `${logged.length} lines at warn or above, the first: ${logged[0]}`);
  });
} finally {
  if (!exited) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`SMOKE ${JSON.stringify({ passed, failed })}`);
}
