import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every environment variable the server reads (the schema in src/server/config.ts) has its row
 * in the README's configuration table, so an operator finds each setting in one place.
 */
describe("the README's configuration table", () => {
  const config = readFileSync('src/server/config.ts', 'utf8');
  const readme = readFileSync('README.md', 'utf8');
  const schema = config.slice(config.indexOf('const schema = z'), config.indexOf('export type RawEnv'));
  const variables = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
  // A row names one variable or several that go together (`S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`).
  const rows = new Set([...readme.matchAll(/^\| ([^|]+)\|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1])));

  it('reads the variables from the config schema', () => {
    expect(variables.length).toBeGreaterThan(30);
    expect(variables).toContain('DATABASE_URL');
    expect(variables).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
  });

  it('has a row for every variable', () => {
    expect(variables.filter((v) => !rows.has(v))).toEqual([]);
  });
});
