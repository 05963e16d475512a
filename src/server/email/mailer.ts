import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/email.js';
import { childKeyOfCurrentJob, type JobQueue } from '../jobs/queue.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post of a notification email, RFC 8058). */
  headers?: Record<string, string>;
  /**
   * A calendar invitation (RFC 5546 iTIP: METHOD REQUEST or CANCEL): sent as the message's
   * text/calendar alternative (`text/calendar; method=REQUEST; charset=UTF-8`) and as an .ics
   * attachment, which Gmail, Outlook and Apple Calendar show as an invitation (ADR 0068).
   */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /**
   * A stable identity of this email (its job's key or id): the Message-ID is made from it, so a
   * send retried after a crash carries the same Message-ID and a receiver can drop the copy.
   */
  id?: string;
}

/** The Message-ID of an email with a stable identity: `<agora.<id>@<the sender's domain>>`. */
export function messageIdFor(id: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'agora.local';
  return `<agora.${id.replace(/[^A-Za-z0-9.-]/g, '.')}@${domain}>`;
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
      async send({ id, icalEvent, ...message }) {
        const messageId = id ? messageIdFor(id, opts.from) : undefined;
        await transporter.sendMail({
          from: opts.from,
          ...message,
          messageId,
          ...(icalEvent && { icalEvent: { method: icalEvent.method, content: icalEvent.content, filename: 'invite.ics' } }),
        });
        opts.log.info({ to: message.to, subject: message.subject, messageId }, 'email sent over SMTP');
      },
      close: () => transporter.close(),
    };
  }
  return {
    transport: 'outbox',
    async send({ id: _id, ...message }) {
      const { icalEvent, ...rest } = message;
      await opts.db
        .insert(emailOutbox)
        .values({ ...rest, headers: message.headers ?? null, icalEvent: icalEvent ?? null, transport: 'outbox' });
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
 * Every attempt of one email job sends the same Message-ID (made from the job's key, or its
 * id); an email sent from inside another job (a notification, a digest) is keyed by that
 * job, its recipient and subject, so the job's retry neither queues a second email while the
 * first waits nor sends one with another Message-ID (docs/decisions/0060).
 */
export function queuedMailer(inner: Mailer, queue: Pick<JobQueue, 'register' | 'enqueue'>): Mailer {
  queue.register(SEND_EMAIL, (payload, job) => inner.send({ ...(payload as EmailMessage), id: job.key ?? `email:${job.id}` }));
  return {
    transport: inner.transport,
    send: (message) => queue.enqueue(SEND_EMAIL, message, { key: childKeyOfCurrentJob('email', `${message.to}\n${message.subject}`) }),
    close: () => inner.close(),
  };
}

const SEND_EMAIL = 'email.send';
