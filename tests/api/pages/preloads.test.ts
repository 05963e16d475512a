import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_MODULES, preloadFiles, type ManifestChunk } from '../../../src/server/pages/routes.js';

const WEB = path.resolve(import.meta.dirname, '../../../src/web');

describe('the modulepreloads a served page announces (decision 0030)', () => {
  it('name modules the router really loads lazily (a renamed page would silently lose its preload)', () => {
    const router = readFileSync(path.join(WEB, 'app/router.tsx'), 'utf8');
    for (const [pattern, modules] of Object.entries(FIRST_LOAD_MODULES)) {
      for (const module of modules!) {
        expect(existsSync(path.join(WEB, module)), `${pattern}: src/web/${module}`).toBe(true);
        // router.tsx imports it relative to src/web/app: './pages/x' or '../features/y/x' (no extension).
        const fromApp = path.relative(path.join(WEB, 'app'), path.join(WEB, module)).replace(/\.tsx?$/, '');
        const specifier = fromApp.startsWith('.') ? fromApp : `./${fromApp}`;
        expect(router, `${pattern}: router.tsx imports ${specifier}`).toContain(`import('${specifier}')`);
      }
    }
  });

  it('follow a page chunk and a layout inlined into a shared chunk, with their imports, never the entry', () => {
    const manifest: Record<string, ManifestChunk> = {
      'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_web-b.js'] },
      '_web-b.js': { file: 'assets/web-b.js', name: 'web' },
      '_app-layout-c.js': { file: 'assets/app-layout-c.js', name: 'app-layout', imports: ['_web-b.js', '_cover-d.js'] },
      '_cover-d.js': { file: 'assets/cover-d.js', name: 'cover' },
      'features/courses/course-page.tsx': {
        file: 'assets/course-page-e.js',
        src: 'features/courses/course-page.tsx',
        imports: ['_web-b.js', '_cover-d.js', 'index.html'],
      },
    };
    expect(preloadFiles(manifest, ['app/app-layout.tsx', 'features/courses/course-page.tsx'])).toEqual([
      'assets/app-layout-c.js',
      'assets/web-b.js',
      'assets/cover-d.js',
      'assets/course-page-e.js',
    ]);
    expect(preloadFiles(manifest, ['app/missing-page.tsx'])).toEqual([]);
  });
});
