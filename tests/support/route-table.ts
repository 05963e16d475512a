import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * The app's own route table, for suites generated from it (cross-user matrix, bad-input
 * corpus): every route the built app registered, with its zod schemas, so a new route
 * is covered without writing a test.
 *
 * Fastify has no public list of routes, so a test file wraps the factory to add an
 * `onRoute` hook before buildApp registers anything (behaviour is unchanged):
 *
 *   vi.mock('fastify', async (original) => (await import('../../support/route-table.js')).recordRoutes(await original()));
 */

export interface RouteSchemas {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  consumes?: string[];
  hide?: boolean;
}

export interface AppRoute {
  method: string;
  /** The path as registered, e.g. /api/courses/:courseId. */
  url: string;
  /** Path parameter names, in order (`*` for a wildcard). */
  params: string[];
  schema: RouteSchemas;
}

const tables = new WeakMap<object, AppRoute[]>();

type FastifyModule = { default: (...args: unknown[]) => FastifyInstance } & Record<string, unknown>;

/** The fastify module with a factory that records every route of the instances it makes. */
export function recordRoutes<T>(original: T): T {
  const mod = original as unknown as FastifyModule;
  const factory = mod.default;
  const wrapped = Object.assign((...args: unknown[]) => {
    const app = factory(...args);
    const table: AppRoute[] = [];
    tables.set(app, table);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = ([] as string[]).concat(route.method as string | string[]);
      const schema = (route.schema ?? {}) as RouteSchemas;
      for (const method of methods) {
        table.push({ method: method.toUpperCase(), url: route.url, params: paramNames(route.url), schema });
      }
    });
    return app;
  }, factory);
  return { ...mod, default: wrapped, fastify: wrapped } as unknown as T;
}

/** Every route the app registered (one entry per method). */
export function routeTable(app: FastifyInstance): AppRoute[] {
  // Plugins may decorate a child instance; the root is the one the factory made.
  const table = tables.get(app);
  if (!table) throw new Error('No route table: the test file must vi.mock("fastify") with recordRoutes (see tests/support/route-table.ts)');
  // The same route can be seen twice (HEAD added for GET); keep one of each.
  const seen = new Set<string>();
  return table.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)|(\*)/g)].map((m) => m[1] ?? '*');
}

/** The URL of a route with its parameters filled in. */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)|\*/g, (whole, name: string | undefined) => {
    const value = values[name ?? '*'];
    if (value === undefined) throw new Error(`no value for ${whole} in ${url}`);
    return encodeURIComponent(value);
  });
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  const?: unknown;
};

/** The JSON Schema of what a zod schema accepts (its input side), or null without one. */
export function inputJsonSchema(schema: z.ZodType | undefined): JsonSchema | null {
  if (!schema) return null;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The object properties of a schema (through nullable/optional wrappers). */
export function objectProperties(schema: JsonSchema | null): Record<string, JsonSchema> {
  if (!schema) return {};
  if (schema.properties) return schema.properties;
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    if (alt.properties) return alt.properties;
  }
  return {};
}
