/**
 * `npm run bench`: the accounts bench (bench/run.ts), the search bench (bench/search.ts)
 * the realtime bench (bench/realtime.ts), the mailbox bench (bench/mailbox.ts) the analytics bench (bench/analytics.ts), the clubs bench (bench/clubs.ts), the fleet bench (bench/fleet.ts), the realtime fleet bench (bench/realtime-fleet.ts) and the email-jobs bench (bench/email-jobs.ts), each in its own process with its own
 * database and server(s). `npm run bench -- --accounts-only`, `-- --search-only` or
 * `-- --realtime-only`, `-- --mailbox-only`, `-- --analytics-only`, `-- --clubs-only`, `-- --fleet-only`, `-- --realtime-fleet-only` or `-- --email-only` runs one of them. Exits 1 when any failed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const only = args.find((a) => /^--[a-z-]+-only$/.test(a))?.slice(2, -5);
const parts = [
  { name: 'accounts', script: 'bench/run.ts' },
  { name: 'search', script: 'bench/search.ts' },
  { name: 'realtime', script: 'bench/realtime.ts' },
  { name: 'mailbox', script: 'bench/mailbox.ts' },
  { name: 'analytics', script: 'bench/analytics.ts' },
  { name: 'clubs', script: 'bench/clubs.ts' },
  { name: 'fleet', script: 'bench/fleet.ts' },
  { name: 'email', script: 'bench/email-jobs.ts' },
  { name: 'realtime-fleet', script: 'bench/realtime-fleet.ts' },
].map((p) => ({ ...p, skip: !!only && only !== p.name }));

const failed: string[] = [];
for (const part of parts) {
  if (part.skip) continue;
  const started = Date.now();
  // `node --import tsx` as the bench's server does: one process, signals reach it directly.
  const run = spawnSync(process.execPath, ['--import', 'tsx', part.script], { cwd: ROOT, stdio: 'inherit' });
  console.log(`\n[${part.name} bench: ${run.status === 0 ? 'pass' : 'FAIL'} in ${((Date.now() - started) / 1000).toFixed(0)} s]\n`);
  if (run.status !== 0) failed.push(part.name);
}
if (failed.length) {
  console.log(`npm run bench: FAIL (${failed.join(', ')})`);
  process.exitCode = 1;
} else {
  console.log('npm run bench: PASS');
}
