import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { selfBaseUrl } from '../payments/stripe-client.js';
import { DeliveryWorker } from './delivery.js';
import type { Ctx } from './store.js';

/**
 * The sandbox's shared services: the database, the delivery worker and the URLs. Tests
 * reach it as `app.paymentsSandbox` (e.g. to point webhooks at their own receiver).
 */
export class Sandbox {
  readonly db: Db;
  readonly delivery: DeliveryWorker;
  /** Webhook target override (tests); default `<this server>/api/stripe/webhook`. */
  webhookUrl: string | null = null;
  /**
   * Requests answered with a 500 api_error, as "METHOD /v1/path" (tests: a provider outage,
   * e.g. 'POST /v1/refunds'). Empty by default; the sandbox never runs in production.
   */
  readonly failRequests = new Set<string>();

  constructor(readonly app: FastifyInstance) {
    this.db = app.database.db;
    const { webhookSecret, connectWebhookSecret } = app.config.payments;
    this.delivery = new DeliveryWorker({
      db: this.db,
      log: app.log,
      url: () => this.webhookUrl ?? this.selfUrl('/api/stripe/webhook'),
      secrets: { platform: webhookSecret, connect: connectWebhookSecret },
    });
  }

  /** This server as seen from itself, or null before it listens. */
  selfUrl(path: string): string | null {
    try {
      return selfBaseUrl(this.app) + path;
    } catch {
      return null;
    }
  }

  /** The address people open (receipt, onboarding and dashboard links). */
  publicBase(): string {
    return this.app.config.publicUrl;
  }

  /** Runs `fn` in one transaction, then hands its events to the delivery worker. */
  async transaction<T>(fn: (ctx: Ctx) => Promise<T>, account: string | null = null): Promise<T> {
    const ctx: Ctx = { tx: this.db, account, events: [], base: this.publicBase() };
    const result = await this.db.transaction(async (tx) => {
      ctx.tx = tx;
      ctx.events = [];
      return fn(ctx);
    });
    this.delivery.kick(ctx.events);
    return result;
  }
}
