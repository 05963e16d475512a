import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * API integration tests (tests/api): the whole Fastify app through inject(), on a fresh
 * PostgreSQL database per run (tests/support/global-setup.ts), PGlite when none is reachable.
 */
export default defineConfig({
  // tsconfig.json's aliases, for the unit tests of web code.
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@web': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  test: {
    include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}', 'packages/*/tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Ceilings, not expectations: generous for a busy two-core machine (load 12 seen);
    // a passing test never waits for them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
