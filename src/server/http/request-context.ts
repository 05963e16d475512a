import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The request id of the request being served, for every log line written while serving it
 * (the logger's mixin, http/logger.ts), including those of use cases that log through the
 * app's logger rather than the request's. Continues into work the request started.
 */
const requestIds = new AsyncLocalStorage<string>();

/** An id a client or proxy may set: letters, digits and . _ : - (no spaces, nothing a log reader would misread). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming X-Request-Id when it is sane (a balancer's or a client's), else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The current request's id, if any. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/** Marks a request's own logger (and, by pino's prototype chain, its children): it already binds reqId. */
const BINDS_REQUEST_ID = Symbol('agora.bindsRequestId');

/** Fastify's childLoggerFactory: the request's logger, as Fastify makes it (with reqId), marked. */
export function requestLogger<L extends { child(bindings: Record<string, unknown>, options?: object): L }>(
  logger: L,
  bindings: Record<string, unknown>,
  options: object,
): L {
  const child = logger.child(bindings, options);
  Object.defineProperty(child, BINDS_REQUEST_ID, { value: true });
  return child;
}

/**
 * Pino's mixin: the request id on every line written while a request is served by a logger
 * that does not bind it already (the app's, used by use cases and services).
 */
export function requestIdMixin(_merge: object, _level: number, logger?: object): Record<string, string> {
  if (logger && (logger as Record<symbol, unknown>)[BINDS_REQUEST_ID]) return {};
  const id = requestIds.getStore();
  return id ? { reqId: id } : {};
}

/** Echoes the id in X-Request-Id (errors and 503s included) and serves the request in its context. */
export function installRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requestIds.run(request.id, done);
  });
}
