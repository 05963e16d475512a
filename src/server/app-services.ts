import type { FastifyInstance } from 'fastify';

/**
 * What every use case takes first (docs/decisions/0008-use-case-shape.md): the app's
 * services (database, configuration, mailer, logger, image store, auth library, payment provider,
 * domain events),
 * never its HTTP side. The Fastify instance is one; a test or a worker may build another.
 */
export type AppServices = Pick<
  FastifyInstance,
  | 'database'
  | 'config'
  | 'mailer'
  | 'log'
  | 'images'
  | 'files'
  | 'auth'
  | 'stripe'
  | 'jobs'
  | 'observe'
  | 'realtime'
  | 'accountEvents'
  | 'courseEvents'
  | 'mailboxEvents'
  | 'paymentEvents'
  | 'clubEvents'
  | 'classroomEvents'
>;
