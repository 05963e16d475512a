import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * API integration tests (tests/api): the whole Fastify app through inject(), on a fresh
 * PostgreSQL database per run (tests/support/global-setup.ts), PGlite when none is reachable.
 */

/**
 * Files that wrap a module with vi.mock (the route table's fastify factory): they need a
 * module graph of their own, so they run isolated. Every other file shares its worker's
 * modules (docs/decisions/0038-ci-under-ten-minutes.md).
 */
const OWN_MODULES = ['tests/api/http/cross-user.test.ts', 'tests/api/http/bad-input-corpus.test.ts'];

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
    // Ceilings, not expectations: generous for a busy two-core machine (load 12 seen);
    // a passing test never waits for them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
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
