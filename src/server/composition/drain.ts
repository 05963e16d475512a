import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';

const REALTIME_ROUTE = '/api/realtime';
/** The balancer's health check (deploy/haproxy.cfg): refused while draining, but not traffic. */
const HEALTH_CHECK_ROUTE = '/api/health';
/** Liveness answers while the process drains (it is alive, only leaving); readiness says it drains. */
const ANSWERED_WHILE_DRAINING = new Set([REALTIME_ROUTE, '/api/health/live', '/api/health/ready']);

/**
 * Graceful shutdown: decorates drain() (app.ts). Requests in flight are counted; once
 * draining, new ones answer 503 shutting_down (with Retry-After), so close() never cuts one
 * half way. The payments sandbox's API (/v1) is called by this server's own requests through
 * the SDK: it keeps answering while they finish, and is not counted (a request waiting on it
 * would otherwise wait on itself); a WebSocket (/api/realtime) lives as long as the tab: it
 * is closed on shutdown, not waited for. The health probes answer throughout (liveness 200,
 * readiness 503 "draining", so a balancer stops sending new requests first).
 *
 * untilUnsent(): how a draining instance knows the balancer let it go. HAProxy learns of the
 * drain only from its health checks (two failed, 500 ms apart); on a loaded machine that took
 * longer than a fixed delay, and closing the port under a request it had just sent answered
 * 502 (docs/decisions/0058). So the port stays open until no request but a health check was
 * refused for a quiet while.
 */
export function installDrain(app: FastifyInstance) {
  let draining = false;
  let inFlight = 0;
  let onDrained: (() => void) | null = null;
  /** When a request other than a health check was last refused for draining (0: none yet). */
  let lastRefusedAt = 0;
  const counted = new WeakSet<FastifyRequest>();
  const finished = (request: FastifyRequest) => {
    if (counted.delete(request) && --inFlight === 0) onDrained?.();
  };
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route?.startsWith('/v1/') || (route && ANSWERED_WHILE_DRAINING.has(route))) return;
    if (draining) {
      if (route !== HEALTH_CHECK_ROUTE) lastRefusedAt = Date.now();
      reply.header('connection', 'close');
      throw new AppError(503, 'shutting_down', 'The server is restarting. Please try again in a moment.', { retryAfterSeconds: 5 });
    }
    counted.add(request);
    inFlight++;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onResponse', async (request) => finished(request));
  app.addHook('onRequestAbort', async (request) => finished(request));
  app.decorate('isDraining', () => draining);
  app.decorate('untilUnsent', async (quietMs: number, ceilingMs: number) => {
    const giveUpAt = Date.now() + ceilingMs;
    for (;;) {
      const quietAt = lastRefusedAt + quietMs;
      if (Date.now() >= quietAt || Date.now() >= giveUpAt) return;
      await new Promise((r) => setTimeout(r, Math.min(quietAt, giveUpAt) - Date.now()));
    }
  });
  app.decorate('drain', async (ceilingMs = 15_000) => {
    draining = true;
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      onDrained = resolve;
      setTimeout(resolve, ceilingMs).unref();
    });
  });
}
