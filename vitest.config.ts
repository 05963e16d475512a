import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * API integration tests (tests/api): the whole Fastify app through inject(), on a fresh
 * PostgreSQL database per run (tests/support/global-setup.ts), PGlite when none is reachable.
 */

/**
 * Files that wrap a module with vi.mock (the route table's fastify factory): they need a
 * module graph of their own, so they run isolated. Every other file shares its worker's
 * modules (docs/decisions/0038-ci-under-ten-minutes.md). The bad-input corpus is in parts
 * (bad-input-corpus-1.test.ts, -2, ...) that run in parallel workers (docs/decisions/0075).
 */
const OWN_MODULES = ['tests/api/http/cross-user*.test.ts', 'tests/api/http/bad-input-corpus*.test.ts'];

/**
 * The files that take longest (seconds, at load ~20: only their order matters), written from a
 * run by `node scripts/test-times.mjs --write`. Each project starts with them, longest first,
 * then the others in Vitest's order (its cache of the last run's times; on a fresh clone, larger
 * files first). Without this a fresh clone ran a short file that waits on servers starting
 * (system/instances-start-together, 158 s) last, alone (docs/decisions/0075).
 */
const SLOW_FILES: Record<string, number> = JSON.parse(readFileSync(new URL('./tests/slow-files.json', import.meta.url), 'utf8'));

class SlowFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const order = new Map((await super.sort(files)).map((f, i) => [f, i]));
    const seconds = (f: TestSpecification) => SLOW_FILES[relative(this.ctx.config.root, f.moduleId)] ?? -1;
    return [...files].sort(
      (a, b) =>
        // Projects one after another, as Vitest does (a worker with the shared module graph
        // is kept only while the next file is of its project).
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        seconds(b) - seconds(a) ||
        order.get(a)! - order.get(b)!,
    );
  }
}

/** Per project (the root runs no tests, so it needs no database). */
const globalSetup = ['tests/support/global-setup.ts'];

export default defineConfig({
  // tsconfig.json's aliases, for the unit tests of web code.
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@web': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Ceilings, not expectations: generous for a busy two-core machine (load 12-18 seen: a
    // receipt waited on for over 60 s, a fleet restart over 120 s);
    // a passing test never waits for them.
    testTimeout: 300_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          globalSetup,
          include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}', 'packages/*/tests/**/*.test.ts'],
          exclude: OWN_MODULES,
          // One module graph per worker instead of one per file: importing the app (Fastify,
          // better-auth, drizzle, the sandbox) cost more than half of the suite's time. Files
          // keep nothing at module level between them (each builds its own app and data).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', globalSetup, include: OWN_MODULES } },
      // The fleet (issue 24): real processes behind HAProxy, one topology for the whole file.
      { extends: true, test: { name: 'fleet', globalSetup, include: ['tests/fleet/**/*.test.ts'] } },
    ],
  },
});
