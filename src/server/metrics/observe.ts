/**
 * What the app's parts report for the metrics (ADR 0063), as plain calls: a domain or a
 * service calls `app.observe.<what>(...)` and never imports the metrics library. Without
 * metrics configured every call is a no-op (noObserve).
 */
export interface Observe {
  /** An email left the app (SMTP), or was kept in the local outbox. */
  emailSent(transport: 'smtp' | 'outbox'): void;
  /** An email could not be sent (it is retried when it went through the job queue). */
  emailFailed(transport: 'smtp' | 'outbox'): void;
  /** A payments webhook delivery: its event type (or `unknown` when unsigned) and what came of it. */
  webhookProcessed(type: string, outcome: 'processed' | 'duplicate' | 'failed' | 'rejected'): void;
  /** A statement ran past DATABASE_STATEMENT_TIMEOUT_MS (SQLSTATE 57014). */
  statementTimeout(): void;
  /** A realtime event was written to a socket this long after it was published (on any instance). */
  realtimeDeliveryLag(seconds: number): void;
}

export const noObserve: Observe = {
  emailSent: () => {},
  emailFailed: () => {},
  webhookProcessed: () => {},
  statementTimeout: () => {},
  realtimeDeliveryLag: () => {},
};

/** A mailer whose sends are counted (sent, failed) by its transport. */
export function observedMailer<M extends { readonly transport: 'smtp' | 'outbox'; send(message: never): Promise<void> }>(
  mailer: M,
  observe: Observe,
): M {
  if (observe === noObserve) return mailer;
  const send = mailer.send.bind(mailer) as (message: unknown) => Promise<void>;
  return Object.assign(Object.create(mailer) as M, {
    async send(message: unknown) {
      try {
        await send(message);
      } catch (err) {
        observe.emailFailed(mailer.transport);
        throw err;
      }
      observe.emailSent(mailer.transport);
    },
  });
}
