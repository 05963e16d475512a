import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { TEST_PASSWORD_HASH_COST } from './test-data.js';
import { freePort } from './local-services.js';
import { serverCommand } from './server-command.js';

export { freePort };

/**
 * The real server process (`node --import tsx src/server/main.ts`, as `npm start` runs it)
 * for the reliability suites, which kill it, signal it and restart it, plus a plain HTTP
 * client over loopback: one connection per request, so a closed listener shows as
 * "connection refused" and a cut one as a reset, never as a stale keep-alive socket.
 */

/** Polls `probe` until it is true; fails after a generous ceiling (a busy machine is slow, not broken). */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean> | boolean,
  ceilingMs = 60_000,
  hopeless = () => false,
): Promise<void> {
  const until = Date.now() + ceilingMs;
  while (
    !(await Promise.resolve()
      .then(probe)
      .catch(() => false))
  ) {
    if (hopeless()) throw new Error(`${what}: can no longer happen`);
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Answer {
  /** The HTTP status, or null when no answer came (refused, reset). */
  status: number | null;
  /** The connection error's code (ECONNREFUSED, ECONNRESET ...) when no answer came. */
  error: string | null;
  body: string;
  /** The body as sent (an image, say). */
  bytes: Buffer;
  headers: http.IncomingHttpHeaders;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * One HTTP request over a fresh loopback connection; connection errors are answers too.
 * `raw` sends bytes as they are (a multipart form, say) with `headers` naming their type.
 */
export function request(
  base: string,
  method: string,
  url: string,
  opts: {
    body?: unknown;
    form?: Record<string, string>;
    raw?: Buffer;
    cookie?: string;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const target = new URL(url, base);
  const payload =
    opts.raw ?? (opts.form ? new URLSearchParams(opts.form).toString() : opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { connection: 'close' };
  if (method !== 'GET') headers.origin = base;
  if (payload !== undefined && !opts.raw) headers['content-type'] = opts.form ? 'application/x-www-form-urlencoded' : 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  Object.assign(headers, opts.headers);
  return new Promise((resolve) => {
    const answer = (status: number | null, error: string | null, bytes = Buffer.alloc(0), h: http.IncomingHttpHeaders = {}) => {
      const body = bytes.toString('utf8');
      resolve({ status, error, body, bytes, headers: h, json: () => JSON.parse(body) });
    };
    const req = http.request(target, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => answer(res.statusCode ?? null, null, Buffer.concat(chunks), res.headers));
      res.on('error', (err: NodeJS.ErrnoException) => answer(null, err.code ?? err.message));
    });
    req.setTimeout(opts.timeoutMs ?? 60_000, () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => answer(null, err.code ?? err.message));
    req.end(payload);
  });
}

export interface ServerProcess {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** The exit code or signal once the process has ended, else null. */
  exit(): number | string | null;
  /** Resolves with the exit code or signal (at once if it has ended). */
  exited(ceilingMs?: number): Promise<number | string>;
  /** The last lines the process wrote to stderr (for failure messages). */
  stderr(): string;
  /** Ends the process if it still runs (SIGKILL after a grace period); for afterAll. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  databaseUrl: string;
  /** Same port and data directory as a previous process: a restart. */
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
  startCeilingMs?: number;
}

/** Starts the server and waits until /api/health answers 200. */
export async function startServer(opts: ServerOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(inject('tmpRoot'), 'server-'));
  // The runner's own mail server and payment keys are not the server's (a test passes its own in `env`).
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.SMTP_URL;
  delete inherited.STRIPE_SECRET_KEY;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    AUTH_RATE_LIMIT: '1000',
    // Cheap hashes (refused in production: a production-mode server hashes at the default).
    ...(opts.env?.NODE_ENV === 'production' ? {} : { PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST }),
    ...opts.env,
  };
  const child = spawn(...serverCommand(), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  let ended: number | string | null = null;
  const done = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve((ended = code ?? signal ?? -1))));
  const server: ServerProcess = {
    base,
    port,
    dataDir,
    child,
    exit: () => ended,
    async exited(ceilingMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const ceiling = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server did not exit within ${ceilingMs} ms`)), ceilingMs);
      });
      try {
        return await Promise.race([done, ceiling]);
      } finally {
        clearTimeout(timer);
      }
    },
    stderr: () => tail,
    async stop() {
      if (ended !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
    },
  };
  try {
    await waitUntil(
      'the server to start',
      async () => (await request(base, 'GET', '/api/health', { timeoutMs: 5000 })).status === 200,
      opts.startCeilingMs ?? 180_000,
      () => ended !== null,
    );
  } catch (err) {
    await server.stop();
    throw new Error(`${(err as Error).message}; stderr: ${tail}`);
  }
  return server;
}

/** A signed-in user made over HTTP: sign-up, the emailed verification link, log-in. */
export async function signedInUser(base: string, tag: string, firstName = 'Ada'): Promise<{ id: string; email: string; cookie: string }> {
  const email = `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = 'Analytical-Engine-1843';
  const up = await request(base, 'POST', '/api/accounts/sign-up', {
    body: { email, firstName, lastName: 'Tester', password, birthdate: '1990-12-10' },
  });
  if (up.status !== 201) throw new Error(`sign-up answered ${up.status} ${up.error ?? up.body}`);
  let link = '';
  await waitUntil(`the verification email to ${email}`, async () => {
    const box = await request(base, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const message = (box.json() as { subject: string; text: string }[]).find((m) => /verify/i.test(m.subject));
    link = /https?:\/\/\S+/.exec(message?.text ?? '')?.[0] ?? '';
    return link !== '';
  });
  const verified = await request(base, 'GET', link);
  if (verified.status !== 302) throw new Error(`verification answered ${verified.status} ${verified.body}`);
  const signIn = await request(base, 'POST', '/api/accounts/sign-in', { body: { email, password } });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status} ${signIn.body}`);
  const setCookie = signIn.headers['set-cookie'] ?? [];
  const cookie = setCookie
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
  return { id: signIn.json().id, email, cookie };
}

/** An educator (onboarding step 1 done) made over HTTP. */
export async function educatorUser(base: string, tag: string) {
  const user = await signedInUser(base, tag, 'Grace');
  const res = await request(base, 'POST', '/api/educators', {
    cookie: user.cookie,
    body: {
      headline: 'Painter and patient teacher',
      bio: 'I have taught watercolour to adults for twelve years, in studios and online.',
      subjects: ['watercolour'],
      links: [],
    },
  });
  if (res.status !== 201) throw new Error(`educator onboarding answered ${res.status} ${res.body}`);
  return user;
}

/** A course body for POST /api/courses, titled so a test can find its rows. */
export const courseBody = (title: string, priceCents = 0) => ({
  title,
  summary: 'Washes, layers and light in six relaxed evenings.',
  description: 'Wet-on-wet, glazing and colour mixing.',
  category: 'arts',
  level: 'beginner',
  language: 'English',
  format: 'online',
  priceCents,
  currency: 'usd',
  refundPolicy: 'moderate',
});

/** Counts of a load run, printed as the suite's summary line. */
export interface Tally {
  requests: number;
  ok: number;
  unavailable: number;
  otherServerErrors: number;
  other: number;
  noAnswer: number;
}

export function tally(answers: Answer[]): Tally {
  const t: Tally = { requests: answers.length, ok: 0, unavailable: 0, otherServerErrors: 0, other: 0, noAnswer: 0 };
  for (const a of answers) {
    if (a.status === null) t.noAnswer++;
    else if (a.status >= 200 && a.status < 300) t.ok++;
    else if (a.status === 503) t.unavailable++;
    else if (a.status >= 500) t.otherServerErrors++;
    else t.other++;
  }
  return t;
}

export interface Sent {
  index: number;
  startedAt: number;
  finishedAt: number;
  answer: Answer;
}

/**
 * Bounded load: `concurrency` workers send requests one after another (a short pause
 * between two, so an outage does not burn through the budget in a blink) until
 * `maxRequests` were sent or `more(sent)` says enough. `onAnswer` sees each answer as it comes.
 */
export async function runLoad(opts: {
  concurrency: number;
  maxRequests: number;
  pauseMs?: number | (() => number);
  send: (index: number) => Promise<Answer>;
  more?: (sent: number) => boolean;
  onAnswer?: (sent: Sent) => void;
}): Promise<Sent[]> {
  const results: Sent[] = [];
  let next = 0;
  const worker = async () => {
    while (next < opts.maxRequests && (opts.more?.(next) ?? true)) {
      const index = next++;
      const startedAt = Date.now();
      const answer = await opts.send(index);
      const sent = { index, startedAt, finishedAt: Date.now(), answer };
      results.push(sent);
      opts.onAnswer?.(sent);
      const pause = typeof opts.pauseMs === 'function' ? opts.pauseMs() : opts.pauseMs;
      if (pause) await new Promise((r) => setTimeout(r, pause));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return results.sort((a, b) => a.index - b.index);
}
