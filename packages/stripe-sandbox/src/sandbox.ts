import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { DeliveryWorker } from './delivery.js';
import type { Ctx, SandboxDb } from './store.js';

/** What the plugin was given, defaults applied (see StripeSandboxOptions in index.ts). */
export interface SandboxSettings {
  db: SandboxDb;
  secretKey: string;
  webhookSecret: string;
  connectWebhookSecret: string;
  webhookUrl: string | null;
  publicUrl: string | null;
  log: FastifyBaseLogger;
}

/**
 * The sandbox's shared services: the database, the delivery worker and the URLs. The
 * host app sees it as `app.stripeSandbox`, typed as the public StripeSandboxControls.
 */
export class Sandbox {
  readonly db: SandboxDb;
  readonly secretKey: string;
  readonly delivery: DeliveryWorker;
  /** Where webhooks go: an absolute URL, a path on this server, or null (not sent). */
  webhookUrl: string | null;
  /**
   * Requests answered with a 500 api_error, as "METHOD /v1/path" (tests: a provider outage,
   * e.g. 'POST /v1/refunds'). Empty by default.
   */
  readonly failRequests = new Set<string>();
  private readonly publicUrl: string | null;

  constructor(
    private readonly app: FastifyInstance,
    settings: SandboxSettings,
  ) {
    this.db = settings.db;
    this.secretKey = settings.secretKey;
    this.webhookUrl = settings.webhookUrl;
    this.publicUrl = settings.publicUrl?.replace(/\/$/, '') ?? null;
    this.delivery = new DeliveryWorker({
      db: this.db,
      log: settings.log,
      url: () => this.webhookTarget(),
      secrets: { platform: settings.webhookSecret, connect: settings.connectWebhookSecret },
    });
  }

  settle(timeoutMs?: number): Promise<boolean> {
    return this.delivery.settle(timeoutMs);
  }

  /** The webhook URL to POST to now, or null (none set, or a path before the server listens). */
  webhookTarget(): string | null {
    if (!this.webhookUrl) return null;
    return this.webhookUrl.startsWith('/') ? this.selfUrl(this.webhookUrl) : this.webhookUrl;
  }

  /** This server as seen from itself, or null before it listens. */
  selfUrl(path: string): string | null {
    const address = this.app.server.address();
    if (!address || typeof address === 'string') return null;
    return `http://127.0.0.1:${address.port}${path}`;
  }

  /** The address people open (checkout form, receipt, onboarding and dashboard links). */
  publicBase(): string {
    return this.publicUrl ?? this.selfUrl('') ?? '';
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
