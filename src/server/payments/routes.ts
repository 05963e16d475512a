import type { FastifyInstance } from 'fastify';

/** /api/stripe/* (spec section 7), the webhook, payment history and payout status. */
export async function paymentRoutes(_app: FastifyInstance) {
  // filled in by the payments implementation
}
