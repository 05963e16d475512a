/**
 * What a hit on the shared limiter costs (ADR 0057), on the PostgreSQL of BENCH_DATABASE_URL
 * (default: a fresh database on the local server): sequential hits (one client's latency),
 * concurrent hits on distinct keys (many clients) and on one key (one client hammering: the
 * row lock serialises them). Run: npx tsx bench/rate-limits.ts
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createRateLimits } from '../src/server/accounts/rate-limits.js';
import { openDatabase } from '../src/server/db/client.js';
import { createRunDatabase } from '../tests/support/run-database.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = process.env.BENCH_DATABASE_URL ? null : await createRunDatabase('agora_bench_limits', undefined);
if (made && 'error' in made) throw new Error(made.error);
const url = process.env.BENCH_DATABASE_URL ?? made!.url;
const database = await openDatabase({ url, dataDir: mkdtempSync(path.join(tmpdir(), 'limits-')), poolSize: 10 });
const limits = createRateLimits(database.db);

async function timed(label: string, n: number, run: () => Promise<unknown>) {
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  console.log(`${label}: ${n} hits in ${ms.toFixed(0)} ms, ${((ms / n) * 1000).toFixed(0)} us/hit, ${Math.round((n / ms) * 1000)} hits/s`);
}

for (let i = 0; i < 200; i++) await limits.hit(`warm:${i}`, 60_000);
const N = 2000;
// The floor: a statement that does nothing, through the same pool and driver.
await timed('sequential, select 1 (baseline)', N, async () => {
  for (let i = 0; i < N; i++) await database.db.execute(sql`select 1`);
});
await timed('sequential, distinct keys', N, async () => {
  for (let i = 0; i < N; i++) await limits.hit(`seq:${randomUUID()}`, 60_000);
});
await timed('sequential, one key', N, async () => {
  for (let i = 0; i < N; i++) await limits.hit('seq:one', 60_000);
});
await timed('50 at a time, distinct keys', N, async () => {
  for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, () => limits.hit(`par:${randomUUID()}`, 60_000)));
});
await timed('50 at a time, one key', N, async () => {
  for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, () => limits.hit('par:one', 60_000)));
});
const one = await limits.read('par:one');
console.log(`one key after ${N} concurrent hits: count ${one.count} (exact: ${one.count === N})`);
await database.close();
await made?.drop();
