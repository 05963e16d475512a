import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface JsFile {
  file: string;
  /** Why it is counted: the entry script, a modulepreload, or the lazy login route. */
  via: 'entry' | 'modulepreload' | 'login-route';
  bytes: number;
  gzipBytes: number;
}

export type LoginJs =
  | { available: false; reason: string }
  | {
      available: true;
      built: boolean;
      files: JsFile[];
      gzipBytes: number;
      /** How the lazy login chunk was (or was not) found. */
      loginRoute: string;
      /** Set when web sources changed after dist/web was built. */
      stale: string | null;
    };

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

/**
 * The JavaScript a first visit to /login downloads, gzipped at level 9: the module
 * scripts and modulepreloads of index.html, plus the lazy login route chunk and its
 * static imports when the build has a Vite manifest to find them by.
 */
export function measureLoginJs(root: string, log: (line: string) => void): LoginJs {
  const dist = path.join(root, 'dist/web');
  const indexFile = path.join(dist, 'index.html');
  let built = false;
  if (!existsSync(indexFile)) {
    log('login JS: dist/web/index.html absent, running `npx vite build --manifest`');
    const result = spawnSync('npx', ['vite', 'build', '--manifest'], { cwd: root, encoding: 'utf8', timeout: 180_000, env: process.env });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-8).join('\n');
    if (result.status !== 0 || !existsSync(indexFile)) {
      return {
        available: false,
        reason: `web build unavailable (vite build ${result.error ? result.error.message : `exited ${result.status}`}${existsSync(indexFile) ? '' : ', no dist/web/index.html'}):\n${output}`,
      };
    }
    built = true;
  }
  const stale = built ? null : staleness(root, statSync(indexFile).mtimeMs);

  const html = readFileSync(indexFile, 'utf8');
  const initial: { url: string; via: JsFile['via'] }[] = [];
  for (const [, tag, attrText] of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = parseAttributes(attrText);
    if (tag.toLowerCase() === 'script' && attrs.type === 'module' && attrs.src) initial.push({ url: attrs.src, via: 'entry' });
    if (tag.toLowerCase() === 'link' && attrs.rel?.split(/\s+/).includes('modulepreload') && attrs.href)
      initial.push({ url: attrs.href, via: 'modulepreload' });
  }
  if (!initial.length)
    return { available: false, reason: 'dist/web/index.html has no <script type="module" src>: cannot tell what /login loads' };

  const files: JsFile[] = [];
  const counted = new Set<string>();
  const add = (file: string, via: JsFile['via']) => {
    if (counted.has(file)) return;
    counted.add(file);
    const content = readFileSync(path.join(dist, file));
    files.push({ file, via, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length });
  };
  for (const { url, via } of initial) {
    if (/^[a-z]+:\/\//i.test(url) || url.startsWith('//'))
      throw new Error(`index.html loads JS from another origin (${url}); the bench cannot measure it`);
    add(url.split(/[?#]/)[0].replace(/^\//, ''), via);
  }

  let loginRoute: string;
  const manifest = readManifest(dist);
  if (!manifest) {
    loginRoute = 'no Vite manifest in dist/web: entry and modulepreloads only (a lazy login chunk, if any, is not counted)';
  } else {
    // The login page and its layout (the layouts load lazily too, with the first page that needs them).
    const keys = Object.keys(manifest).filter(
      (k) => manifest[k].isDynamicEntry && (isLoginModule(manifest[k].src ?? k) || /(^|\/)auth-layout\.tsx$/.test(manifest[k].src ?? k)),
    );
    if (!keys.length) {
      loginRoute = 'manifest has no lazy login chunk (the login page is in the initial JS)';
    } else {
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || counted.has(chunk.file)) return;
        add(chunk.file, 'login-route');
        for (const imported of chunk.imports ?? []) visit(imported);
      };
      keys.forEach(visit);
      loginRoute = `lazy login chunk from the manifest: ${keys.join(', ')} (+ its static imports)`;
    }
  }
  return { available: true, built, files, gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0), loginRoute, stale };
}

function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name, dq, sq, bare] of text.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    attrs[name.toLowerCase()] = dq ?? sq ?? bare ?? '';
  }
  return attrs;
}

function readManifest(dist: string): Record<string, ManifestChunk> | null {
  for (const candidate of ['.vite/manifest.json', 'manifest.json']) {
    const file = path.join(dist, candidate);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  }
  return null;
}

/** src/web/pages/LoginPage.tsx, src/web/routes/login.tsx, src/web/login/index.tsx and the like. */
function isLoginModule(source: string): boolean {
  const parts = source.toLowerCase().split('/');
  const base = parts.at(-1)!.replace(/\.[cm]?[jt]sx?$/, '');
  if (['login', 'loginpage', 'loginroute', 'loginscreen', 'loginview', 'login-page', 'login.page', 'login.route'].includes(base))
    return true;
  return ['index', 'page', 'route'].includes(base) && parts.at(-2) === 'login';
}

/** Names the newest web source edited after the build, if any: the figure may not be today's code. */
function staleness(root: string, builtAt: number): string | null {
  let newest = { file: '', mtimeMs: 0 };
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const { mtimeMs } = statSync(full);
        if (mtimeMs > newest.mtimeMs) newest = { file: full, mtimeMs };
      }
    }
  };
  walk(path.join(root, 'src/web'));
  walk(path.join(root, 'src/shared'));
  for (const file of ['vite.config.ts', 'package-lock.json'].map((f) => path.join(root, f))) {
    if (existsSync(file) && statSync(file).mtimeMs > newest.mtimeMs) newest = { file, mtimeMs: statSync(file).mtimeMs };
  }
  if (newest.mtimeMs <= builtAt) return null;
  return `dist/web is older than ${path.relative(root, newest.file)}: run \`npm run build\` (or delete dist/web) to measure the current code`;
}
