/**
 * The classroom bench (issue 25, docs/decisions/0072-classroom.md): `npm run bench:classroom`.
 *
 *   1. a fresh PostgreSQL database, the real server in a child process (BENCH_ROUTES, demo
 *      accounts); the demo educator's first published session gets 30 enrolled learners
 *      (written in SQL, each with a sign-in session: sessionsFor) and a classroom of
 *      CLASSROOM_BENCH_POSTS posts and as many replies (written in SQL);
 *   2. the page: interleaved rounds of the floor, GET /api/me and GET the classroom (its first
 *      page: the pinned posts and the 20 newest, each with its files and replies), as a learner;
 *   3. live: the 30 learners' WebSockets open; the educator posts CLASSROOM_BENCH_LIVE_POSTS
 *      times, CLASSROOM_BENCH_LIVE_GAP_MS (300) apart, through the real route (POST
 *      .../classroom/posts: the insert and the notifications' job in one transaction, then the
 *      push); each delivery timed from just before the POST to its receipt on the learner's
 *      socket; lost deliveries counted.
 *
 * Budgets (docs/decisions/0004): the classroom page >= 0.5x /api/me (the median of the
 * per-round ratios); live delivery to 30 tabs p99 < 100 ms, nothing lost. Figures go to
 * bench/results/classroom-latest.json; exit 1 when a budget is missed.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/server/seed/demo-users.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { measure, type LoadSettings } from './lib/load.js';
import { judgeRatio, verdictLine } from './lib/ratios.js';
import { table, writeResults } from './lib/report.js';
import { sessionsFor, signIn, startBenchServer, type Session } from './lib/server.js';
import { pct, sleep } from './lib/sockets.js';
import { classTimeBody, createClassTimes, createCourse, createSession, publishCourse, type Send } from '../tests/support/test-data.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/classroom-latest.json');
const AUTH_SECRET = randomBytes(32).toString('hex');
const LEARNERS = envInt('CLASSROOM_BENCH_LEARNERS', 30);
const POSTS = envInt('CLASSROOM_BENCH_POSTS', 200);
const LIVE_POSTS = envInt('CLASSROOM_BENCH_LIVE_POSTS', 50);
/** Between two posts: each one's notifications (a background job telling 30 learners) are done before the next. */
const LIVE_GAP_MS = envInt('CLASSROOM_BENCH_LIVE_GAP_MS', 300, 0);
const settings: LoadSettings = {
  connections: envInt('BENCH_CONNECTIONS', 50),
  seconds: envInt('CLASSROOM_BENCH_SECONDS', 3),
  rounds: envInt('BENCH_ROUNDS', 3),
  warmupSeconds: 1,
};
const BUDGET = { pageOverMe: 0.5, liveP99Ms: 100 };
const GRACE_MS = 5000;
const log = (line: string) => console.log(`  ${line}`);

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora classroom bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}`,
  );
  const loadBefore = os.loadavg()[0];
  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the classroom bench needs PostgreSQL: ${database.reason}`);
  const server = await startBenchServer({ name: 'classroom', root: ROOT, databaseUrl: database.url, env: { AUTH_SECRET } });
  console.log(`Database ${database.name}; server pid ${server.pid} at ${server.baseUrl}`);
  // Signing in waits for the demo data (seeded once the server is up).
  const grace = DEMO_USERS.find((u) => u.email === 'grace@agora.local')!;
  const educator = await signIn(server, grace.email, DEMO_PASSWORD);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanup('close the bench connection', () => db.end());

  // A published free course of the demo educator, made through the API, with room for the learners.
  const send: Send = async (method, p, body) => {
    const res = await fetch(server.baseUrl + p, {
      method,
      headers: { origin: server.baseUrl, cookie: educator.cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), text, json: () => JSON.parse(text) } as Awaited<
      ReturnType<Send>
    >;
  };
  const courseId = await createCourse(send, { title: 'Python for Curious Beginners', priceCents: 0 });
  const sessionId = await createSession(send, courseId, { capacity: 10 });
  await createClassTimes(send, courseId, sessionId, classTimeBody(3));
  await publishCourse(send, courseId);
  await db.query(`update course_session set capacity = capacity + $2 where id = $1`, [sessionId, LEARNERS]);
  const { rows: users } = await db.query<{ id: string }>(
    `insert into "user" (email, name, first_name, last_name, verified)
     select 'classroom-bench' || g || '@agora.local', 'Bench Learner ' || g, 'Bench', 'Learner ' || g, true
     from generate_series(1, $1::int) g order by g returning id`,
    [LEARNERS],
  );
  await db.query(
    `insert into enrolment (session_id, course_id, learner_id, status) select $1, $2, id, 'active' from unnest($3::uuid[]) id`,
    [sessionId, courseId, users.map((u) => u.id)],
  );
  await db.query(`update course_session set seats_taken = seats_taken + $2 where id = $1`, [sessionId, LEARNERS]);
  const learners: Session[] = await sessionsFor(
    db,
    educator,
    users.map((u) => u.id),
    AUTH_SECRET,
  );
  // POSTS posts (3 pinned) and as many replies, spread over the learners, in the last weeks.
  await db.query(
    `insert into classroom_post (course_id, session_id, author_id, body, links, pinned, created_at)
     select $1, $2, $3, '## Week ' || g || E'\\n\\nRead **chapter ' || g || E'** before class; the exercises are in the notes.\\n\\n- one\\n- two',
       '[{"url":"https://docs.python.org/3/tutorial/","label":"The tutorial"}]'::jsonb, g <= 3, now() - make_interval(mins => g * 30)
     from generate_series(1, $4::int) g`,
    [courseId, sessionId, educator.userId, POSTS],
  );
  await db.query(
    `insert into classroom_reply (post_id, author_id, body, created_at)
     select p.id, ($2::uuid[])[1 + (row_number() over () % cardinality($2::uuid[]))], 'Thanks! A question about exercise ' || row_number() over (), p.created_at + interval '5 minutes'
     from classroom_post p where p.session_id = $1`,
    [sessionId, users.map((u) => u.id)],
  );
  const page = `/api/courses/${courseId}/sessions/${sessionId}/classroom`;
  const first = await fetch(server.baseUrl + page, { headers: { cookie: learners[0].cookie } });
  if (first.status !== 200) throw new Error(`the classroom page answered ${first.status}: ${await first.text()}`);
  const firstBody = (await first.json()) as { posts: { replies: unknown[] }[] };
  const pageBytes = JSON.stringify(firstBody).length;
  console.log(
    `Classroom: ${POSTS} posts and ${POSTS} replies, ${LEARNERS} learners; its first page ${firstBody.posts.length} posts, ` +
      `${firstBody.posts.reduce((n, p) => n + p.replies.length, 0)} replies, ${(pageBytes / 1024).toFixed(1)} KB\n`,
  );

  // Part 2: the page beside /api/me.
  const routes = await measure(
    server.baseUrl,
    [
      { name: 'floor', path: `/api/bench/select?id=${learners[0].userId}` },
      { name: 'me', path: '/api/me', headers: { cookie: learners[0].cookie } },
      { name: 'classroom page', path: page, headers: { cookie: learners[0].cookie } },
    ],
    settings,
    log,
  );

  // Part 3: live delivery to the 30 open tabs.
  const receivedAt = new Map<string, number[]>();
  const sockets = await Promise.all(
    learners.map(
      (l, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(server.baseUrl.replace(/^http/, 'ws') + '/api/realtime', {
            headers: { cookie: l.cookie, origin: server.baseUrl },
            perMessageDeflate: false,
          });
          ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
          ws.once('error', reject);
          ws.on('message', (data) => {
            const m = JSON.parse(String(data)) as { type: string; postId?: string; what?: string };
            if (m.type === 'ready') return resolve(ws);
            if (m.type === 'classroom.changed' && m.what === 'post' && m.postId) {
              const list = receivedAt.get(m.postId) ?? Array.from({ length: learners.length }, () => NaN);
              if (Number.isNaN(list[i])) list[i] = performance.now();
              receivedAt.set(m.postId, list);
            }
          });
        }),
    ),
  );
  const sent: { postId: string; at: number; answeredMs: number }[] = [];
  let httpErrors = 0;
  for (let n = 0; n < LIVE_POSTS; n++) {
    const at = performance.now();
    const res = await fetch(server.baseUrl + `${page}/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: educator.cookie },
      body: JSON.stringify({ body: `Live announcement ${n}: the room changed to B${n}.` }),
    });
    const answeredMs = performance.now() - at;
    if (res.status !== 201) {
      httpErrors++;
      console.log(`  post ${n} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      continue;
    }
    sent.push({ postId: ((await res.json()) as { id: string }).id, at, answeredMs });
    await sleep(LIVE_GAP_MS);
  }
  const until = performance.now() + GRACE_MS;
  const complete = () => sent.every((s) => (receivedAt.get(s.postId) ?? []).filter((t) => !Number.isNaN(t)).length === learners.length);
  while (performance.now() < until && !complete()) await sleep(50);
  for (const ws of sockets) ws.terminate();
  const latencies: number[] = [];
  /** From the POST's answer to the receipt (the push goes out before the answer: <= 0 means it was already there). */
  const afterAnswer: number[] = [];
  let lost = 0;
  for (const s of sent) {
    const got = receivedAt.get(s.postId) ?? [];
    for (let i = 0; i < learners.length; i++) {
      if (Number.isNaN(got[i] ?? NaN)) lost++;
      else {
        latencies.push(got[i] - s.at);
        afterAnswer.push(got[i] - (s.at + s.answeredMs));
      }
    }
  }
  latencies.sort((a, b) => a - b);
  afterAnswer.sort((a, b) => a - b);
  const posts = sent.map((s) => s.answeredMs).sort((a, b) => a - b);
  const live = {
    tabs: learners.length,
    posts: sent.length,
    deliveries: latencies.length,
    lost,
    httpErrors,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    postP50: pct(posts, 50),
    postP99: pct(posts, 99),
    afterAnswerP50: pct(afterAnswer, 50),
    afterAnswerP99: pct(afterAnswer, 99),
  };
  await cleanup();

  console.log(`\n=== Classroom bench (median round of each route) ===`);
  table(
    ['route', 'req/s', 'p50', 'p99', 'req/s per round'],
    routes.map((r) => [
      r.name,
      String(r.median.reqPerSec),
      `${r.median.p50Ms} ms`,
      `${r.median.p99Ms} ms`,
      r.rounds.map((x) => x.reqPerSec).join(' / '),
    ]),
  );
  const pageVerdict = judgeRatio(routes, { route: 'classroom page', over: 'me', min: BUDGET.pageOverMe });
  console.log(`  ${verdictLine(pageVerdict)}`);
  const ms = (n: number) => n.toFixed(1);
  console.log(
    `\nLive: ${live.posts} posts to ${live.tabs} open classroom tabs: ${live.deliveries} deliveries, ${live.lost} lost; ` +
      `POST to receipt p50 ${ms(live.p50)} ms, p99 ${ms(live.p99)} ms, max ${ms(live.max)} ms (the POST itself: p50 ${ms(live.postP50)}, p99 ${ms(live.postP99)} ms; ` +
      `receipt after the POST's answer: p50 ${ms(live.afterAnswerP50)}, p99 ${ms(live.afterAnswerP99)} ms)`,
  );
  const loadAfter = os.loadavg()[0];
  console.log(`Load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`);
  writeResults(
    ROOT,
    RESULTS,
    { budget: BUDGET, posts: POSTS, learners: LEARNERS, pageBytes, routes, verdicts: [pageVerdict], live },
    { loadBefore, loadAfter },
  );

  const failures: string[] = [];
  if (!pageVerdict.met) failures.push(`the classroom page is ${pageVerdict.median.toFixed(2)}x /api/me (< ${BUDGET.pageOverMe}x)`);
  if (!(live.p99 < BUDGET.liveP99Ms)) failures.push(`live p99 ${ms(live.p99)} ms >= ${BUDGET.liveP99Ms} ms`);
  if (live.lost || live.httpErrors) failures.push(`${live.lost} deliveries lost, ${live.httpErrors} posts failed`);
  if (failures.length) {
    console.log(`\nFAIL:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else
    console.log(
      `\nPASS: the classroom page >= ${BUDGET.pageOverMe}x /api/me; a post reaches ${live.tabs} tabs with p99 < ${BUDGET.liveP99Ms} ms, none lost`,
    );
}

runMain(main);
