import Stripe from 'stripe';
import type { FastifyInstance } from 'fastify';
import type { PaymentsConfig } from '../config.js';

/**
 * The one Stripe client of the app. Real Stripe when keys are configured; otherwise the
 * payments sandbox mounted in this same server (packages/stripe-sandbox), reached over
 * HTTP on the port the server listens on, so it is resolved lazily (tests listen on port 0).
 */
export function createStripeClient(config: PaymentsConfig, app: FastifyInstance): () => Stripe {
  let client: Stripe | null = null;
  return () => {
    if (client) return client;
    if (config.mode === 'stripe') {
      client = new Stripe(config.secretKey, { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Agora' } });
    } else {
      client = new Stripe(config.secretKey, {
        host: '127.0.0.1',
        port: listeningPort(app),
        protocol: 'http',
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: 'Agora' },
      });
    }
    return client;
  };
}

/** The port this server listens on (the sandbox is served by it). */
export function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  if (!address || typeof address === 'string') {
    throw new Error('The payments sandbox needs the server to be listening (call app.listen first)');
  }
  return address.port;
}

/** Base URL of this server as seen from itself (sandbox webhook deliveries, SDK). */
export function selfBaseUrl(app: FastifyInstance): string {
  return `http://127.0.0.1:${listeningPort(app)}`;
}
