import { defineConfig } from 'drizzle-kit';

/** The sandbox's own migrations (applied by the plugin itself, src/migrate.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.ts',
  out: './migrations',
  schemaFilter: ['stripe_sandbox'],
});
