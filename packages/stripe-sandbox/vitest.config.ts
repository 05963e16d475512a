import { defineConfig } from 'vitest/config';

/** The package alone (`npm test` here); the Agora root's config also includes these tests. */
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
