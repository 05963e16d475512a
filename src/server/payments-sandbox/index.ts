import type { FastifyInstance } from 'fastify';

/**
 * The payments sandbox: Stripe's HTTP API subset under /v1 and its pages under /sandbox.
 * Registered only when no Stripe keys are configured (never in production).
 */
export async function paymentsSandbox(_app: FastifyInstance) {
  // filled in by the sandbox implementation
}
