import { defineConfig } from 'vitest/config';

/**
 * API integration tests (tests/api): the whole Fastify app through inject(), on a fresh
 * PostgreSQL database per run (tests/support/global-setup.ts), PGlite when none is reachable.
 */
export default defineConfig({
  test: {
    include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}', 'packages/*/tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
