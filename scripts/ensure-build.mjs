// `npm start`'s builds: the web app when dist/web is missing or older than its sources, and the
// server bundle it runs (dist/server/main.mjs, half a second: always, so it is never stale).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildServer } from './build-server.mjs';

const out = 'dist/web/index.html';
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const sources = Math.max(newest('src/web'), newest('src/shared'), statSync('vite.config.ts').mtimeMs);
if (!existsSync(out) || statSync(out).mtimeMs < sources) {
  console.log('Building the web app…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await buildServer();
