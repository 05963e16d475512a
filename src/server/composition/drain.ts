import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';

const REALTIME_ROUTE = '/api/realtime';
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
 */
export function installDrain(app: FastifyInstance) {
  let draining = false;
  let inFlight = 0;
  let onDrained: (() => void) | null = null;
  const counted = new WeakSet<FastifyRequest>();
  const finished = (request: FastifyRequest) => {
    if (counted.delete(request) && --inFlight === 0) onDrained?.();
  };
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route?.startsWith('/v1/') || (route && ANSWERED_WHILE_DRAINING.has(route))) return;
    if (draining) {
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
  app.decorate('drain', async (ceilingMs = 15_000) => {
    draining = true;
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      onDrained = resolve;
      setTimeout(resolve, ceilingMs).unref();
    });
  });
}
