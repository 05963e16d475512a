import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { QueueStats } from '../jobs/stats.js';
import type { Observe } from './observe.js';

/** Where the gauges read their values when scraped (composition wires them: app.ts). */
export interface MetricSources {
  /** The PostgreSQL pool (null on PGlite). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** The job queue, through the jobs domain's export (jobs/stats.ts). */
  queueStats(): Promise<QueueStats>;
  /** WebSockets open on this process. */
  socketsOpen(): number;
}

export interface Metrics {
  observe: Observe;
  /** Times every answered request by route (the route's pattern, never the raw URL). */
  install(app: FastifyInstance): void;
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * The app's Prometheus metrics (prom-client, a registry per app): request latency by route,
 * the database pool and its waiters, statement timeouts, the job queue's depth and oldest
 * age, sockets open and the realtime delivery lag, emails sent and failed, payments webhooks, and Node's own process
 * metrics. Names and alerts: docs/decisions/0063 and the README.
 */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  client.collectDefaultMetrics({ register: registry, prefix: 'agora_' });

  const requestDuration = new client.Histogram({
    name: 'agora_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new client.Gauge({
    name: 'agora_db_pool_connections',
    help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const s = sources.poolStats();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  const statementTimeouts = new client.Counter({
    name: 'agora_db_statement_timeouts_total',
    help: 'Statements cancelled by the statement timeout (DATABASE_STATEMENT_TIMEOUT_MS)',
    registers,
  });

  // One query per scrape for both job gauges (each gauge's collect asks; the first answer is shared).
  let queue: { at: number; stats: Promise<QueueStats | null> } | null = null;
  const queueNow = () => {
    if (!queue || Date.now() - queue.at > 1000) queue = { at: Date.now(), stats: sources.queueStats().catch(() => null) };
    return queue.stats;
  };
  new client.Gauge({
    name: 'agora_jobs',
    help: 'Background jobs by state: due (waiting for a worker), running (held by one), scheduled (for later), failed (gave up)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const s = await queueNow();
      if (!s) return;
      this.set({ state: 'due' }, s.due);
      this.set({ state: 'running' }, s.running);
      this.set({ state: 'scheduled' }, s.scheduled);
      this.set({ state: 'failed' }, s.failed);
    },
  });
  new client.Gauge({
    name: 'agora_jobs_oldest_due_seconds',
    help: 'Seconds since the oldest job due or running was due (a queue not drained, or a stuck job)',
    registers,
    async collect() {
      const s = await queueNow();
      if (s) this.set(s.oldestDueSeconds);
    },
  });
  new client.Gauge({
    name: 'agora_realtime_sockets_open',
    help: 'WebSockets open on this instance',
    registers,
    collect() {
      this.set(sources.socketsOpen());
    },
  });
  const emails = new client.Counter({
    name: 'agora_emails_total',
    help: 'Emails by transport and outcome (sent, failed)',
    labelNames: ['transport', 'outcome'] as const,
    registers,
  });
  const webhooks = new client.Counter({
    name: 'agora_payments_webhooks_total',
    help: 'Payments webhook deliveries by event type and outcome (processed, duplicate, failed, rejected)',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });

  const deliveryLag = new client.Histogram({
    name: 'agora_realtime_delivery_lag_seconds',
    help: "Time from a realtime event's publish (on any instance, by its clock) to its write on a socket of this one",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });

  return {
    observe: {
      emailSent: (transport) => emails.inc({ transport, outcome: 'sent' }),
      emailFailed: (transport) => emails.inc({ transport, outcome: 'failed' }),
      webhookProcessed: (type, outcome) => webhooks.inc({ type, outcome }),
      statementTimeout: () => statementTimeouts.inc(),
      realtimeDeliveryLag: (seconds) => deliveryLag.observe(seconds),
    },
    install(app) {
      app.addHook('onResponse', async (request, reply) => {
        requestDuration.observe(
          { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

const digest = (v: string) => createHash('sha256').update(v).digest();

/** Whether an Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  return !!m && timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * Serves GET /metrics: on a port of its own (METRICS_PORT, started when the app is ready,
 * closed with it) and/or on the app's port behind a bearer token (METRICS_TOKEN). With both,
 * the port asks for the token too. Never on the public port without a token.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, opts: { host: string; port: number | null; token: string | null }) {
  const { token } = opts;
  if (opts.port === null && token) {
    app.get('/metrics', { schema: { hide: true } as Record<string, unknown> }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer');
        return reply.status(401).send({ error: { code: 'unauthorized', message: 'The metrics need the bearer token (METRICS_TOKEN)' } });
      }
      const { contentType, body } = await metrics.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  }
  if (opts.port === null) return;
  const port = opts.port;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('The metrics need the bearer token\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      (err: Error) => {
        app.log.warn({ err: err.message }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected\n');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info(`metrics at http://${opts.host}:${(server.address() as { port: number }).port}/metrics`);
  });
  app.addHook('onClose', async () => {
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}
