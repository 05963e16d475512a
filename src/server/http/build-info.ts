import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

let cached: { id: string; mtimeMs: number } | null = null;

/**
 * The id of the web build being served (written by the Vite build into build.json).
 * Re-read when the file changes, so a deploy that replaces dist/ is noticed without a restart.
 */
export function buildId(): string {
  const file = path.join(WEB_DIST, 'build.json');
  try {
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs === mtimeMs) return cached.id;
    const id = String(JSON.parse(readFileSync(file, 'utf8')).buildId ?? 'dev');
    cached = { id, mtimeMs };
    return id;
  } catch {
    return 'dev';
  }
}
