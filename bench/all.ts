/**
 * `npm run bench`: the accounts bench (bench/run.ts), the search bench (bench/search.ts),
 * then the mailbox bench (bench/mailbox.ts), each in its own process with its own database
 * and server. `npm run bench -- --accounts-only`, `-- --search-only` or `-- --mailbox-only` runs one of them.
 * Exits 1 when either failed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const parts = [
  { name: 'accounts', script: 'bench/run.ts', skip: args.includes('--search-only') || args.includes('--mailbox-only') },
  { name: 'search', script: 'bench/search.ts', skip: args.includes('--accounts-only') || args.includes('--mailbox-only') },
  { name: 'mailbox', script: 'bench/mailbox.ts', skip: args.includes('--accounts-only') || args.includes('--search-only') },
];

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
