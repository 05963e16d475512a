import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/email.js';
import type { JobQueue } from '../jobs/queue.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post of a notification email, RFC 8058). */
  headers?: Record<string, string>;
}

/** Sends email: over SMTP when SMTP_URL is set, else into the local outbox table. */
export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

export function createMailer(opts: { smtpUrl?: string; from: string; db: Db; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
        await transporter.sendMail({ from: opts.from, ...message });
        opts.log.info({ to: message.to, subject: message.subject }, 'email sent over SMTP');
      },
      close: () => transporter.close(),
    };
  }
  return {
    transport: 'outbox',
    async send(message) {
      await opts.db.insert(emailOutbox).values({ ...message, headers: message.headers ?? null, transport: 'outbox' });
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      opts.log.info({ to: message.to, subject: message.subject, link }, 'email kept in the local outbox (/dev/outbox)');
    },
    close: () => {},
  };
}

/**
 * A mailer whose `send` only stores the message as a background job; the job sends it
 * through `inner` (retried on failure). Requests then answer without waiting on the SMTP
 * server, in the same time whether they send an email or not (docs/decisions/0012).
 */
export function queuedMailer(inner: Mailer, queue: Pick<JobQueue, 'register' | 'enqueue'>): Mailer {
  queue.register(SEND_EMAIL, (payload) => inner.send(payload as EmailMessage));
  return {
    transport: inner.transport,
    send: (message) => queue.enqueue(SEND_EMAIL, message),
    close: () => inner.close(),
  };
}

const SEND_EMAIL = 'email.send';
