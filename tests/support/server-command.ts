import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How a test starts the real server: as `npm start` does, plain Node on the bundle that
 * scripts/build-server.mjs makes (dist/server/main.mjs), built once per test run. A start
 * through tsx compiled ~400 modules each time: ~2 s more CPU a start, ~30 starts a run (ADR 0079).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_BUNDLE = path.join(ROOT, 'dist/server/main.mjs');

/** `spawn(...serverCommand())`: the executable and its arguments (the bundle built first if need be). */
export function serverCommand(): [string, string[]] {
  ensureServerBundle();
  return [process.execPath, ['--enable-source-maps', SERVER_BUNDLE]];
}

/**
 * Builds the bundle from the sources as they are, once per run: skipped when the runner
 * already did (`npm test` builds it first and says so in AGORA_SERVER_BUILT).
 */
export function ensureServerBundle(): void {
  if (process.env.AGORA_SERVER_BUILT === '1') return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the server bundle did not build (node scripts/build-server.mjs)');
  process.env.AGORA_SERVER_BUILT = '1';
}
