import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../shared/errors.js';
import { errorPage } from './error-page.js';
import { PG } from '../db/errors.js';

/**
 * The one error type of the application. Use cases throw it; the error handler below
 * turns it into the one error body. Its message is always safe to show a person.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { fields?: Record<string, string>; reasons?: string[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }

  static badRequest(message: string, fields?: Record<string, string>) {
    return new AppError(400, 'bad_request', message, { fields });
  }
  static unauthorized(message = 'Please log in to continue') {
    return new AppError(401, 'unauthorized', message);
  }
  static forbidden(message = 'You are not allowed to do this') {
    return new AppError(403, 'forbidden', message);
  }
  static notFound(message = 'Not found') {
    return new AppError(404, 'not_found', message);
  }
}

export function errorBody(err: AppError): ErrorBody {
  return { error: { code: err.code, message: err.message, ...err.extra } };
}

/** Turns zod issues into "field -> message" with a readable summary. */
function fieldsFromValidation(err: FastifyError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const v of err.validation ?? []) {
    const params = v.params as { issue?: { path?: (string | number)[] } } | undefined;
    const path = params?.issue?.path?.join('.') || v.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'body';
    fields[path] ??= v.message ?? 'is invalid';
  }
  const first = Object.entries(fields)[0];
  const message = first ? (first[0] === 'body' ? first[1] : `${first[0]}: ${first[1]}`) : 'The request is invalid';
  return { message, fields };
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.warn({ err: err.cause ?? err, code: err.code }, err.message);
      if (err.extra.retryAfterSeconds) reply.header('retry-after', String(err.extra.retryAfterSeconds));
      return reply.status(err.status).send(errorBody(err));
    }
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      const { message, fields } = fieldsFromValidation(err);
      return reply.status(400).send(errorBody(new AppError(400, 'invalid_input', message, { fields })));
    }
    const cause = databaseFailure(err);
    if (cause === 'unavailable') {
      if (hasCode(err, PG.statementTimeout)) request.server.observe?.statementTimeout();
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', '5');
      const message = 'The service is temporarily unavailable (its database is not answering). Please try again in a moment.';
      if (!request.url.startsWith('/api/') && request.method === 'GET') {
        return reply
          .status(503)
          .type('text/html; charset=utf-8')
          .send(errorPage(503, 'Service Unavailable', message));
      }
      return reply.status(503).send(errorBody(new AppError(503, 'database_unavailable', message)));
    }
    if (cause === 'input') {
      // A value the schemas let through but PostgreSQL refused: the client's mistake, never a 500.
      request.log.warn({ err }, 'database refused an input value');
      return reply
        .status(400)
        .send(
          errorBody(
            new AppError(400, 'invalid_input', 'The request contains a value that is not valid (a date, a number or a text out of range)'),
          ),
        );
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, too large, rate limit ...) carry safe messages.
      const code = status === 429 ? 'rate_limited' : (err.code?.toLowerCase() ?? 'bad_request');
      return reply.status(status).send(errorBody(new AppError(status, code, readable(err, status))));
    }
    request.log.error({ err }, 'unhandled error');
    if (!request.url.startsWith('/api/') && request.method === 'GET') {
      return reply
        .status(500)
        .type('text/html; charset=utf-8')
        .send(errorPage(500, 'Internal Server Error', 'Something went wrong on our side. Please try again in a moment.'));
    }
    return reply.status(500).send(errorBody(new AppError(500, 'internal', 'Internal Server Error')));
  });
}

/** Node socket errors and node-postgres client messages of a lost or unreachable database. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'is not queryable',
  'Client was closed',
];

/**
 * SQLSTATEs of a database that cannot serve us, whatever we ask: the connection (class 08),
 * an operator or a restart (57: admin shutdown, crash shutdown, cannot connect now, a
 * statement timeout 57014), its resources (53: too many connections, disk full, out of
 * memory), the database gone (3D000, dropped or renamed) or our login refused (28000, 28P01).
 */
const UNAVAILABLE_CODE = /^(08|57|53)[0-9A-Z]{3}$|^3D000$|^28(000|P01)$/;

/**
 * 55000 (object not in prerequisite state) means "the database does not allow connections"
 * (ALTER DATABASE ... ALLOW_CONNECTIONS false) or "is not currently accepting connections";
 * the same code also reports a bug of ours (a sequence's currval not yet defined), which
 * stays a 500: only these messages are unavailability.
 */
const REFUSES_CONNECTIONS = /does not allow connections|not currently accepting connections/i;

/**
 * What a database error says about the request, looking through wrappers (drizzle puts the
 * driver's error in `cause`): `unavailable` when the database is gone, refuses connections,
 * is restarting, or too slow (UNAVAILABLE_CODE, 55000 refusing connections, client timeouts);
 * `input` when PostgreSQL refused a value (class 22, data exceptions: impossible dates,
 * overflowing numbers, NUL bytes, time zones it does not know).
 */
export function databaseFailure(err: unknown): 'unavailable' | 'input' | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_CODE.test(code)) return 'unavailable';
      if (code === '55000' && REFUSES_CONNECTIONS.test(String((e as { message?: unknown }).message ?? ''))) return 'unavailable';
      if (CONNECTION_ERRNOS.has(code)) return 'unavailable';
      if (/^22[0-9A-Z]{3}$/.test(code)) return 'input';
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m))) return 'unavailable';
  }
  return null;
}

/** Whether `code` is the code of the error or of one of its causes. */
function hasCode(err: unknown, code: string): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** No request of ours nests deeper; a deeper body is refused before anything walks it. */
const MAX_INPUT_DEPTH = 32;

/**
 * The path of the first string holding a NUL character (PostgreSQL refuses them in text),
 * or null. Walks without recursion and refuses absurdly nested input with a 400.
 */
export function nulBytePath(value: unknown): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || 'value';
      continue;
    }
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_INPUT_DEPTH)
      throw new AppError(400, 'invalid_input', 'The request is nested too deeply', { fields: { [path || 'body']: 'nested too deeply' } });
    for (const [key, inner] of Object.entries(v)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      stack.push({ value: inner, path: at, depth: depth + 1 });
    }
  }
  return null;
}

function readable(err: FastifyError, status: number): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The upload is too large';
    default:
      if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return 'The request body is not valid JSON';
      return status === 404 ? 'Not found' : err.message || 'The request is invalid';
  }
}

/**
 * Errors the router raises before any route runs (a malformed URL, a path parameter over
 * the length limit): the one error body, and never the URL echoed back.
 */
export function frameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : 400;
  return reply
    .status(status)
    .send(
      errorBody(
        new AppError(status, tooLong ? 'uri_too_long' : 'bad_url', tooLong ? 'The address is too long' : 'The address is not valid'),
      ),
    );
}
