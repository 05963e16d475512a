import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.js';
import { REQUEST_ID_ATTRIBUTE } from '../../../src/server/metrics/tracing.js';
import { buildTestApp } from '../../support/app.js';
import { get } from '../../support/http.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';
import { request, startServer, type ServerProcess } from '../../support/server-process.js';

/**
 * Issue 24 item 6: OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set. The real
 * server process sends its spans over OTLP/HTTP (JSON) to a collector this test plays: a
 * request is one span named by its route's pattern, with the request id and the status; the
 * spans batched are flushed by the graceful shutdown. Without the variable nothing is set up.
 */
const usesPostgres = !!inject('databaseUrl') && process.env.AGORA_TEST_PGLITE !== '1';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string };
}
interface OtlpSpan {
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const attribute = (attributes: OtlpAttribute[], key: string) => {
  const value = attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
};

/** A minimal OTLP/HTTP collector: keeps every JSON export posted to /v1/traces. */
async function startCollector() {
  const exports: { path: string; contentType: string | undefined; body: OtlpExport }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(text) as OtlpExport });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, exports, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.skipIf(!usesPostgres)('traces with OTEL_EXPORTER_OTLP_ENDPOINT (the real server process)', () => {
  let run: RunDatabase;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    const made = await createRunDatabase('agora_otel');
    if ('error' in made) throw new Error(made.error);
    run = made;
    collector = await startCollector();
  });

  afterAll(async () => {
    await server?.stop();
    await collector?.close();
    await run?.drop();
  });

  it('sends a span per request, named by the route pattern, with the request id and status, flushed at shutdown', async () => {
    server = await startServer({
      databaseUrl: run.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_SERVICE_NAME: 'agora-otel-test',
        // Nothing is sent on the batch's schedule during the test: only the shutdown's flush can deliver.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
    });
    const courseId = randomUUID();
    const requestId = `otel-${randomUUID()}`;
    const answer = await request(server.base, 'GET', `/api/courses/${courseId}?token=secret-in-a-link`, {
      headers: { 'x-request-id': requestId },
    });
    expect(answer.status).not.toBeNull();
    expect(answer.headers['x-request-id']).toBe(requestId);
    expect(collector.exports).toEqual([]);

    await server.stop();
    expect(server.exit()).toBe(0);

    expect(collector.exports.length).toBeGreaterThan(0);
    for (const e of collector.exports) {
      expect(e.path).toBe('/v1/traces');
      expect(e.contentType).toMatch(/^application\/json/);
    }
    const resources = collector.exports.flatMap((e) => e.body.resourceSpans);
    expect(resources.map((r) => attribute(r.resource.attributes, 'service.name'))).toContain('agora-otel-test');
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const mine = spans.filter((s) => attribute(s.attributes, REQUEST_ID_ATTRIBUTE) === requestId);
    expect(mine, JSON.stringify(spans.map((s) => s.name))).toHaveLength(1);
    const [span] = mine;
    expect(span.name).toBe('GET /api/courses/:courseId');
    expect(span.kind).toBe(2); // SERVER
    expect(attribute(span.attributes, 'http.route')).toBe('/api/courses/:courseId');
    expect(attribute(span.attributes, 'http.response.status_code')).toBe(answer.status);
    expect(attribute(span.attributes, 'url.path')).toBe(`/api/courses/${courseId}`);
    // No span is named by a raw URL (an id in it), and the query string is never sent.
    expect(spans.filter((s) => s.name.includes(courseId))).toEqual([]);
    expect(JSON.stringify(collector.exports)).not.toContain('secret-in-a-link');
    // The health checks (startServer polled /api/health) make no spans.
    expect(spans.filter((s) => s.name.includes('/api/health'))).toEqual([]);
  });
});

describe('no tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('configures nothing, and the app registers no tracing plugin', async () => {
    expect(loadConfig({}).otel).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).otel).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'agora',
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be a URL/);
    const app = await buildTestApp();
    try {
      expect(app.hasPlugin('@fastify/otel')).toBe(false);
      expect((await get(app, '/api/health/live')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
