/**
 * What the realtime benches share (bench/realtime.ts: one and two processes; bench/realtime-fleet.ts:
 * three instances behind HAProxy): users with sessions written straight to the database, their
 * sockets opened where each client's `at` says, and timed rounds of messages between random pairs.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import WebSocket from 'ws';
import { table } from './report.js';

const COOKIE = 'agora.session_token';
/** How long after the last send a delivery may still arrive before it counts as lost. */
const GRACE_MS = 5000;
/** Sockets opened at once (each is a session lookup on its server). */
const OPEN_BATCH = 50;

export interface Client {
  userId: string;
  cookie: string;
  /** Where its socket is: a server's index, or -1 for a balancer. */
  at: number;
  ws?: WebSocket;
}

export interface Part {
  name: string;
  rate: number;
  sent: number;
  httpErrors: number;
  misdelivered: number;
  delivered: number;
  lost: number;
  duplicated: number;
  p50: number;
  p99: number;
  max: number;
  /** The send request alone (HTTP, insert, publish, answer). */
  sendP50: number;
  sendP99: number;
  /** From the publish (after the insert committed) to the receipt. */
  fanOutP50: number;
  fanOutP99: number;
  /** Deliveries whose socket was on another instance than the one the message was sent to. */
  cross?: { delivered: number; p50: number; p99: number };
  same?: { delivered: number; p50: number; p99: number };
}

/** A bench.message as heard: `n` is the bench's number (`seq` before the per-user sequence took that name). */
type Heard = { type: string; n?: number; seq?: number; publishedAt?: number };

export const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** N verified users with one sign-in session each, and their session cookies (signed as better-auth does). */
export async function makeUsers(db: pg.Client, n: number, opts: { authSecret: string; emailPrefix: string }): Promise<Client[]> {
  const clients: Client[] = [];
  for (let from = 0; from < n; from += 500) {
    const batch = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({
      id: randomUUID(),
      email: `${opts.emailPrefix}-${from + i}-${randomBytes(4).toString('hex')}@example.com`,
      token: randomBytes(24).toString('base64url'),
    }));
    await db.query(
      `insert into "user" (id, email, name, first_name, last_name, verified)
       select id, email, 'Bench User', 'Bench', 'User', true from unnest($1::uuid[], $2::text[]) as t(id, email)`,
      [batch.map((b) => b.id), batch.map((b) => b.email)],
    );
    await db.query(
      `insert into session (token, user_id, expires_at)
       select token, user_id, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as t(token, user_id)`,
      [batch.map((b) => b.token), batch.map((b) => b.id)],
    );
    for (const b of batch) {
      const signature = createHmac('sha256', opts.authSecret).update(b.token).digest('base64');
      clients.push({ userId: b.id, cookie: `${COOKIE}=${encodeURIComponent(`${b.token}.${signature}`)}`, at: 0 });
    }
  }
  return clients;
}

const handlers = new WeakMap<WebSocket, (message: Heard) => void>();

/** Opens every client's socket where `at` says, OPEN_BATCH at a time; resolves once all said ready. */
export async function openSockets(clients: Client[], baseOf: (at: number) => string, where: string) {
  const started = performance.now();
  for (let i = 0; i < clients.length; i += OPEN_BATCH) {
    await Promise.all(
      clients.slice(i, i + OPEN_BATCH).map(
        (c) =>
          new Promise<void>((resolve, reject) => {
            const base = baseOf(c.at);
            const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/realtime', {
              headers: { cookie: c.cookie, origin: base },
              perMessageDeflate: false,
            });
            c.ws = ws;
            ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused by ${base}: ${res.statusCode}`)));
            ws.once('error', reject);
            ws.on('message', (data) => {
              const message = JSON.parse(String(data)) as Heard;
              if (message.type === 'ready') return resolve();
              handlers.get(ws)?.(message);
            });
          }),
      ),
    );
  }
  console.log(`Opened ${clients.length} sockets ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export function closeSockets(clients: Client[]) {
  for (const c of clients) c.ws?.terminate();
}

/**
 * `rate` messages a second for `seconds` between random pairs of `clients`, each sent through
 * POST /api/bench/realtime/send where `via()` says (an index for baseOf, -1 for a balancer);
 * every delivery timed from just before the POST to its receipt and counted (lost,
 * duplicated, heard by another user's socket); deliveries whose socket was elsewhere than the
 * send (`at` differs) apart from those that stayed.
 */
export async function runMessages(opts: {
  name: string;
  clients: Client[];
  via: () => number;
  baseOf: (at: number) => string;
  rate: number;
  seconds: number;
}): Promise<Part> {
  const { name, clients, via, baseOf, rate, seconds } = opts;
  const total = rate * seconds;
  const sentAt = new Float64Array(total);
  const crossed = new Uint8Array(total);
  const receivedAt = new Float64Array(total);
  const receipts = new Uint16Array(total);
  const answeredAt = new Float64Array(total);
  const accepted = new Uint8Array(total);
  const fanOutMs = new Float64Array(total).fill(NaN);
  const expectedBy = new Int32Array(total).fill(-1);
  let httpErrors = 0;
  let misdelivered = 0;
  clients.forEach((c, index) =>
    handlers.set(c.ws!, (m) => {
      const n = typeof m.n === 'number' ? m.n : m.seq;
      if (m.type !== 'bench.message' || typeof n !== 'number' || n >= total) return;
      if (expectedBy[n] !== index) return void misdelivered++;
      if (receipts[n]++ === 0) {
        receivedAt[n] = performance.now();
        if (typeof m.publishedAt === 'number') fanOutMs[n] = Date.now() - m.publishedAt;
      }
    }),
  );
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let seq = 0; seq < total; seq++) {
    const due = started + (seq * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const from = Math.floor(Math.random() * clients.length);
    let to = Math.floor(Math.random() * (clients.length - 1));
    if (to >= from) to++;
    const at = via();
    const base = baseOf(at);
    expectedBy[seq] = to;
    // Through the balancer neither end's instance is known here: counted as neither.
    crossed[seq] = at < 0 || clients[to].at < 0 ? 2 : at === clients[to].at ? 0 : 1;
    sentAt[seq] = performance.now();
    inFlight.push(
      fetch(`${base}/api/bench/realtime/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ from: clients[from].userId, to: clients[to].userId, seq }),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          answeredAt[seq] = performance.now();
          if (res.status === 200) accepted[seq] = 1;
          else httpErrors++;
        })
        .catch(() => {
          httpErrors++;
        }),
    );
  }
  await Promise.all(inFlight);
  const until = performance.now() + GRACE_MS;
  while (performance.now() < until && receipts.some((r, seq) => r === 0 && accepted[seq])) await sleep(50);

  const all: number[] = [];
  const cross: number[] = [];
  const same: number[] = [];
  let lost = 0;
  let duplicated = 0;
  for (let seq = 0; seq < total; seq++) {
    if (receipts[seq] === 0) {
      if (accepted[seq]) lost++;
      continue;
    }
    if (receipts[seq] > 1) duplicated += receipts[seq] - 1;
    const latency = receivedAt[seq] - sentAt[seq];
    all.push(latency);
    if (crossed[seq] === 1) cross.push(latency);
    else if (crossed[seq] === 0) same.push(latency);
  }
  const send = Array.from(answeredAt, (t, seq) => t - sentAt[seq]).filter((t) => t > 0);
  const fan = Array.from(fanOutMs).filter((t) => Number.isFinite(t));
  for (const list of [all, cross, same, send, fan]) list.sort((a, b) => a - b);
  const part: Part = {
    name,
    rate,
    sent: total,
    httpErrors,
    misdelivered,
    delivered: all.length,
    lost,
    duplicated,
    p50: pct(all, 50),
    p99: pct(all, 99),
    max: all[all.length - 1] ?? NaN,
    sendP50: pct(send, 50),
    sendP99: pct(send, 99),
    fanOutP50: pct(fan, 50),
    fanOutP99: pct(fan, 99),
  };
  if (cross.length) {
    part.cross = { delivered: cross.length, p50: pct(cross, 50), p99: pct(cross, 99) };
    part.same = { delivered: same.length, p50: pct(same, 50), p99: pct(same, 99) };
  }
  console.log(
    `  ${name}: ${total} sent at ${rate}/s, ${all.length} delivered, ${lost} lost, ${duplicated} duplicated, ${httpErrors} sends failed, p50 ${ms(part.p50)} ms, p99 ${ms(part.p99)} ms (send p50 ${ms(part.sendP50)}, p99 ${ms(part.sendP99)} ms; publish to receipt p50 ${ms(part.fanOutP50)}, p99 ${ms(part.fanOutP99)} ms)`,
  );
  return part;
}

/** The parts as a table (one row each), as both realtime benches print them. */
export function partsTable(parts: Part[]) {
  table(
    [
      'part',
      'rate/s',
      'sent',
      'delivered',
      'lost',
      'dup',
      'send err',
      'p50 ms',
      'p99 ms',
      'max ms',
      'send p50',
      'send p99',
      'fan-out p50',
      'fan-out p99',
    ],
    parts.map((r) => [
      r.name,
      String(r.rate),
      String(r.sent),
      String(r.delivered),
      String(r.lost),
      String(r.duplicated),
      String(r.httpErrors),
      ms(r.p50),
      ms(r.p99),
      ms(r.max),
      ms(r.sendP50),
      ms(r.sendP99),
      ms(r.fanOutP50),
      ms(r.fanOutP99),
    ]),
  );
}

/** What a budgeted part must hold: p99 under `p99Ms`, nothing lost, duplicated, refused or misdelivered. */
export function partFailures(parts: Part[], p99Ms: number): string[] {
  const failures: string[] = [];
  for (const r of parts) {
    if (!(r.p99 < p99Ms)) failures.push(`${r.name}: p99 ${ms(r.p99)} ms >= ${p99Ms} ms`);
    if (r.lost) failures.push(`${r.name}: ${r.lost} lost`);
    if (r.duplicated) failures.push(`${r.name}: ${r.duplicated} duplicated`);
    if (r.httpErrors) failures.push(`${r.name}: ${r.httpErrors} sends failed`);
    if (r.misdelivered) failures.push(`${r.name}: ${r.misdelivered} events reached another user`);
  }
  return failures;
}
