/**
 * `npm run bench -- --email-only`: how fast sign-up and a password-reset request answer while
 * the mail server is slow (it takes BENCH_SMTP_DELAY_MS, default 1500, to accept each message).
 * Emails are background jobs (issue 12 defect 6), so both must answer well before the mail
 * server does. The API suite proves the order (tests/api/accounts/auth-jobs.test.ts, the mail
 * server holding its answers); the time is this bench's.
 *
 * The real server in a child process on a fresh PostgreSQL database (PGlite when none is
 * reachable), at the production password-hash cost; every request from its own loopback
 * address, as separate visitors (the per-IP sign-up limit holds for each). Budget: the slowest
 * answer of each kind under the mail server's delay. Exit 1 when missed or a request failed.
 */
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmtpServer } from '../tests/support/smtp.js';
import { newUser } from '../tests/support/test-data.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { table } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SMTP_DELAY_MS = envInt('BENCH_SMTP_DELAY_MS', 1500);
const COUNT = envInt('BENCH_EMAIL_REQUESTS', 8);

/** One POST from its own loopback address; its status and how long it took. */
function timedPost(baseUrl: string, at: string, pathname: string, body: unknown): Promise<{ status: number; ms: number }> {
  const url = new URL(pathname, baseUrl);
  const data = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: at,
        headers: { host: url.host, origin: baseUrl, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora email-jobs bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const smtp = await startSmtpServer({ delayMs: SMTP_DELAY_MS });
  onCleanup('stop the SMTP server', () => smtp.stop());
  const database = await createBenchDatabase();
  const server = await startBenchServer({
    name: 'email',
    root: ROOT,
    databaseUrl: database.kind === 'postgres' ? database.url : '',
    env: { SMTP_URL: smtp.url, SEED_DEMO: 'false' },
  });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl}; the mail server takes ${SMTP_DELAY_MS} ms to accept a message\n`);

  const signUps: number[] = [];
  const resets: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const user = newUser();
    const email = user.email;
    const signUp = await timedPost(server.baseUrl, `127.0.${10 + i}.1`, '/api/accounts/sign-up', user);
    if (signUp.status !== 201) failures.push(`sign-up answered ${signUp.status}`);
    signUps.push(signUp.ms);
    const reset = await timedPost(server.baseUrl, `127.1.${10 + i}.1`, '/api/accounts/password-reset', { email });
    if (reset.status !== 200) failures.push(`password reset answered ${reset.status}`);
    resets.push(reset.ms);
  }
  // Every message reaches the mail server in the end (2 per account), however slow it is.
  const deadline = Date.now() + 2 * COUNT * SMTP_DELAY_MS + 30_000;
  while (smtp.received.length < 2 * COUNT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (smtp.received.length < 2 * COUNT) failures.push(`${smtp.received.length} of ${2 * COUNT} emails reached the mail server`);

  const row = (name: string, ms: number[]) => {
    const worst = Math.max(...ms);
    const ok = worst < SMTP_DELAY_MS;
    if (!ok) failures.push(`${name}: slowest ${worst.toFixed(0)} ms, budget < ${SMTP_DELAY_MS} ms`);
    return [name, String(ms.length), `${median(ms).toFixed(0)} ms`, `${worst.toFixed(0)} ms`, `< ${SMTP_DELAY_MS} ms`, ok ? 'ok' : 'OVER'];
  };
  table(['request', 'n', 'median', 'slowest', 'budget', ''], [row('sign-up', signUps), row('password reset', resets)], 2);
  console.log(`  load average 1 min after: ${os.loadavg()[0].toFixed(2)}`);
  await cleanup();
  if (failures.length) {
    console.log(`\nFAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nPASS: neither request waits for the mail server');
  }
}

runMain(main);
