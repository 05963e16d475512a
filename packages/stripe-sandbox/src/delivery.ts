import Stripe from 'stripe';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { sandboxDelivery, sandboxObject } from './schema.js';
import type { Obj, SandboxDb } from './store.js';

/**
 * Webhook delivery of sandbox events: HTTP POST of the event JSON to the app's webhook
 * endpoint with a `Stripe-Signature` header made exactly as Stripe makes it
 * (t=<unix>,v1=HMAC-SHA256(secret, "<t>.<payload>")); platform events signed with the
 * platform secret, Connect events (with `account`) with the Connect secret.
 *
 * State is in `stripe_sandbox.delivery`, so pending deliveries survive a restart. One worker per
 * process, in event order; a failed event blocks later events of the same object until it
 * succeeds (ordered per object). Failures retry with back-off 1 s, 2 s, 4 s … capped at
 * 60 s, and stop 3 days after the event. Several app instances may share a database
 * (tests): each delivers its own events at once, and takes over another instance's only
 * when it is overdue by the lease (claims are leases, so a crashed worker's work resumes).
 */
export interface DeliveryOptions {
  db: SandboxDb;
  log: FastifyBaseLogger;
  /** Where to POST; null while the server is not listening yet. */
  url: () => string | null;
  secrets: { platform: string; connect: string };
  /** Back-off before attempt n+1 after n failures (ms). */
  retryDelayMs?: (failures: number) => number;
  /** How often pending deliveries are looked for (ms). */
  pollMs?: number;
}

const LEASE_MS = 15_000;
const GIVE_UP_MS = 3 * 24 * 3600 * 1000;
const FAR_FUTURE = new Date('9999-12-31T00:00:00Z');

export const defaultRetryDelayMs = (failures: number) => Math.min(1000 * 2 ** Math.max(failures - 1, 0), 60_000);

export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;
  /** Events created by this process: delivered without waiting for a lease to expire. */
  private readonly own = new Set<string>();
  retryDelayMs: (failures: number) => number;

  constructor(private readonly opts: DeliveryOptions) {
    this.retryDelayMs = opts.retryDelayMs ?? defaultRetryDelayMs;
  }

  start() {
    this.stopped = false;
    this.schedule(this.opts.pollMs ?? 1000);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Let a pass in flight finish (its database may close right after).
    for (let i = 0; i < 200 && this.running; i++) await new Promise((r) => setTimeout(r, 25));
  }

  /**
   * Resolves once every event this process created has been delivered (or `timeoutMs`
   * passed): tests that count webhook effects wait for it instead of racing deliveries.
   */
  async settle(timeoutMs = 10_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (this.own.size === 0 && !this.running) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  }

  /** New events (after their transaction committed): deliver now. */
  kick(eventIds: string[] = []) {
    for (const id of eventIds) this.own.add(id);
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.pass();
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), ms);
    this.timer.unref();
  }

  /** One pass over pending deliveries, oldest event first. Resolves when done. */
  async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      do {
        this.again = false;
        await this.deliverDue();
      } while (this.again && !this.stopped);
    } catch (err) {
      if (!this.stopped) this.opts.log.warn({ err }, 'payments sandbox: webhook delivery pass failed');
    } finally {
      this.running = false;
      this.schedule(this.opts.pollMs ?? 1000);
    }
  }

  private async deliverDue() {
    const url = this.opts.url();
    if (!url) return;
    const { db } = this.opts;
    const rows = await db
      .select({
        eventId: sandboxDelivery.eventId,
        attempts: sandboxDelivery.attempts,
        nextAttemptAt: sandboxDelivery.nextAttemptAt,
        data: sandboxObject.data,
        parent: sandboxObject.parent,
      })
      .from(sandboxDelivery)
      .innerJoin(sandboxObject, eq(sandboxObject.id, sandboxDelivery.eventId))
      .where(and(isNull(sandboxDelivery.deliveredAt), sql`${sandboxDelivery.nextAttemptAt} < ${FAR_FUTURE}`))
      .orderBy(sql`${sandboxDelivery.eventId} collate "C"`)
      .limit(200);
    const blocked = new Set<string>();
    const now = Date.now();
    for (const row of rows) {
      if (this.stopped) return;
      const objectId = row.parent ?? row.eventId;
      if (blocked.has(objectId)) continue;
      const grace = this.own.has(row.eventId) ? 0 : LEASE_MS;
      if (row.nextAttemptAt.getTime() + grace > now) {
        blocked.add(objectId);
        continue;
      }
      // Claim with a lease: only one worker sends an attempt (times compared to the
      // millisecond, the precision the row was read with).
      const claimed = await db
        .update(sandboxDelivery)
        .set({ nextAttemptAt: new Date(now + LEASE_MS) })
        .where(
          and(
            eq(sandboxDelivery.eventId, row.eventId),
            sql`date_trunc('milliseconds', ${sandboxDelivery.nextAttemptAt}) = ${row.nextAttemptAt.toISOString()}::timestamptz`,
            isNull(sandboxDelivery.deliveredAt),
          ),
        )
        .returning({ id: sandboxDelivery.eventId });
      if (claimed.length === 0) {
        blocked.add(objectId);
        continue;
      }
      this.own.add(row.eventId);
      const ok = await this.send(row.eventId, row.data as Obj, row.attempts, url);
      if (!ok) blocked.add(objectId);
    }
  }

  private async send(eventId: string, event: Obj, attempts: number, url: string): Promise<boolean> {
    const payload = JSON.stringify(event, null, 2);
    const secret = event.account ? this.opts.secrets.connect : this.opts.secrets.platform;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signPayload(payload, secret),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (this.stopped) return error === null;
    const failures = attempts + 1;
    if (error === null) {
      await this.opts.db
        .update(sandboxDelivery)
        .set({ attempts: failures, deliveredAt: new Date(), lastStatus: status, lastError: null })
        .where(eq(sandboxDelivery.eventId, eventId));
      this.own.delete(eventId);
      return true;
    }
    const createdMs = (event.created as number) * 1000;
    const giveUp = Date.now() - createdMs > GIVE_UP_MS;
    await this.opts.db
      .update(sandboxDelivery)
      .set({
        attempts: failures,
        lastStatus: status,
        lastError: giveUp ? `${error} (gave up after 3 days)` : error,
        nextAttemptAt: giveUp ? FAR_FUTURE : new Date(Date.now() + this.retryDelayMs(failures)),
      })
      .where(eq(sandboxDelivery.eventId, eventId));
    if (giveUp) this.own.delete(eventId);
    this.opts.log.debug({ eventId, error, giveUp }, 'payments sandbox: webhook delivery failed');
    return false;
  }
}
