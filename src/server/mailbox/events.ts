import { DomainEvents } from '../events/domain-events.js';

/**
 * What the mailbox announces (docs/decisions/0007-domain-events.md). Higher domains
 * (notifications: "new message", emailed only if still unread after a delay) subscribe at
 * start-up; the mailbox never imports them. A send itself announces nothing (ADR 0036): its
 * one statement stores the "still unread?" reminder, which announces `message.unread`.
 */
export type MailboxEventMap = {
  /**
   * Messages of `senderId` still unread by `recipientId` a while after they were sent
   * (unread-reminder.ts): `count` of them, the newest `messageId` with its `body`. Announced
   * once per conversation and delay, never per message.
   */
  'message.unread': {
    event: { recipientId: string; senderId: string; senderName: string; messageId: string; body: string; count: number };
  };
  /** A reader's read position in a conversation moved forward (announced once it is stored). */
  'conversation.read': { event: { readerId: string; otherId: string; upTo: string } };
};

export type MailboxEvents = DomainEvents<MailboxEventMap>;

export function createMailboxEvents(log: { error(obj: object, msg: string): void }): MailboxEvents {
  return new DomainEvents<MailboxEventMap>(log);
}
