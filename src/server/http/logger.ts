import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { requestIdMixin } from './request-context.js';

/**
 * The server log. Production: pino's JSON, one line per request at info. Development:
 * readable lines through pino-pretty (when it is installed; JSON otherwise) and requests at
 * debug, so the log shows what happened (start-up, emails, warnings) rather than every
 * asset the browser fetched. Fastify's own two lines per request are replaced by one.
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return { level: 'silent' };
  // Every line written while a request is served carries its id (reqId), whoever wrote it.
  const mixin = requestIdMixin;
  if (config.logFormat === 'pretty' && prettyInstalled()) {
    return {
      level: config.logLevel,
      mixin,
      transport: {
        target: 'pino-pretty',
        options: { colorize: !!process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
      },
    };
  }
  return { level: config.logLevel, mixin };
}

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** One line per answered request: at info in production (the access log), at debug otherwise. */
export function logRequests(app: FastifyInstance, config: Pick<Config, 'logFormat'>) {
  const level: keyof Pick<FastifyBaseLogger, 'info' | 'debug'> = config.logFormat === 'json' ? 'info' : 'debug';
  app.addHook('onResponse', async (request, reply) => {
    request.log[level](
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      `${request.method} ${request.url} ${reply.statusCode}`,
    );
  });
}
