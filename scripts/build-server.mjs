// Bundles the server (src/server/main.ts, with src/shared and the payments sandbox package) into
// one ES module, dist/server/main.mjs, with esbuild: `npm start`, the container and every test
// that starts a server process run it with plain Node, instead of compiling each of some 400
// TypeScript modules through tsx at every start (~2 s of CPU less a start; ADR 0079).
// node_modules stay outside the bundle (native addons, optional dynamic imports).
//
// `node scripts/build-server.mjs [outfile]`, or `buildServer(outfile)` from another script.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(ROOT, 'dist/server/main.mjs');

/**
 * A module that finds files beside itself (`new URL('../assets/…', import.meta.url)`, the
 * migrations, dist/web) keeps its own URL in the bundle: `import.meta.url` becomes the
 * module's source path relative to the bundle, so the bundle and the tree move together.
 */
function ownImportMetaUrl(outdir) {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      // The workspace package is TypeScript source: bundled, not left for Node to load.
      b.onResolve({ filter: /^@agora\/stripe-sandbox$/ }, () => ({ path: path.join(ROOT, 'packages/stripe-sandbox/src/index.ts') }));
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

export async function buildServer(outfile = SERVER_BUNDLE) {
  await build({
    entryPoints: [path.join(ROOT, 'src/server/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    packages: 'external',
    plugins: [ownImportMetaUrl(path.dirname(outfile))],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const out = await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`Server bundled: ${path.relative(process.cwd(), out)} (${Math.round(performance.now() - started)} ms)`);
}
