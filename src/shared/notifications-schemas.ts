import { z } from 'zod';
import { str } from './input-schemas.js';

/** Notifications (issue 10): what a user hears about, in the app and by email. */

/** Every kind of notification, in the order the preferences table lists them. */
export const NOTIFICATION_TYPES = [
  'new_message',
  'enrolled',
  'waitlist_promoted',
  'waitlist_offer',
  'session_changed',
  'payment_receipt',
  'installment_failed',
  'refund_issued',
  'learner_enrolled',
  'new_review',
  'club_join_request',
  'club_request_approved',
  'club_new_event',
  'club_event_changed',
  'club_waitlist_promoted',
  'club_event_reminder',
  'club_ownership',
  'class_reminder',
  'classroom_post',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What the preferences table calls each type. */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  new_message: 'New messages',
  enrolled: 'Enrolment confirmations',
  waitlist_promoted: 'A seat from the waitlist',
  waitlist_offer: 'A paid seat held for you from the waitlist',
  session_changed: 'Session cancelled or changed',
  payment_receipt: 'Payment receipts',
  installment_failed: 'Failed installments',
  refund_issued: 'Refunds',
  learner_enrolled: 'A learner enrolled in your course',
  new_review: 'New reviews of your courses',
  club_join_request: 'Requests to join a club you organise',
  club_request_approved: 'Your request to join a club was approved',
  club_new_event: 'New events in your clubs',
  club_event_changed: 'A club event you go to changed or was cancelled',
  club_waitlist_promoted: 'A place at a club event from the waitlist',
  club_event_reminder: 'Reminders of club events (24 h and 1 h before)',
  club_ownership: 'A club handed over to you',
  class_reminder: 'Class reminders (24 h and 1 h before) and calendar invitations',
  classroom_post: 'New posts and replies in your classrooms',
};

/**
 * Who can get each type: everyone, educators only (news of their courses), or club organisers
 * only (requests to join a club they organise). The settings list a type only to those it
 * concerns (issue 23 item 3); the others are everyone's.
 */
export const NOTIFICATION_AUDIENCE: Partial<Record<NotificationType, 'educator' | 'organiser'>> = {
  learner_enrolled: 'educator',
  new_review: 'educator',
  club_join_request: 'organiser',
};

/** The email channel: each one at once, one digest a day, or none. */
export const EMAIL_MODES = ['instant', 'digest', 'off'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export const notificationPreference = z.object({ inApp: z.boolean(), email: z.enum(EMAIL_MODES) });
export type NotificationPreference = z.infer<typeof notificationPreference>;

/**
 * Without a stored row: in the app always; by email at once, except news that is not urgent
 * (a learner enrolled, a club's new events, requests to join a club): a daily digest.
 */
export const DEFAULT_PREFERENCES: Record<NotificationType, NotificationPreference> = {
  new_message: { inApp: true, email: 'instant' },
  enrolled: { inApp: true, email: 'instant' },
  waitlist_promoted: { inApp: true, email: 'instant' },
  waitlist_offer: { inApp: true, email: 'instant' },
  session_changed: { inApp: true, email: 'instant' },
  payment_receipt: { inApp: true, email: 'instant' },
  installment_failed: { inApp: true, email: 'instant' },
  refund_issued: { inApp: true, email: 'instant' },
  learner_enrolled: { inApp: true, email: 'digest' },
  new_review: { inApp: true, email: 'instant' },
  club_join_request: { inApp: true, email: 'digest' },
  club_request_approved: { inApp: true, email: 'instant' },
  club_new_event: { inApp: true, email: 'digest' },
  club_event_changed: { inApp: true, email: 'instant' },
  club_waitlist_promoted: { inApp: true, email: 'instant' },
  club_event_reminder: { inApp: true, email: 'instant' },
  club_ownership: { inApp: true, email: 'instant' },
  class_reminder: { inApp: true, email: 'instant' },
  classroom_post: { inApp: true, email: 'instant' },
};

export const notificationView = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  /** Where it leads in the app (a course, a conversation, the payments in settings). */
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;

export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_MAX = 100;

export const notificationListQuery = z.object({
  unread: z.enum(['true', 'false'], { error: 'unread must be true or false' }).optional(),
  cursor: str()
    .max(200)
    .regex(/^[0-9]{4}-[0-9T:.Z-]+_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'cursor is not one this list gave')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(NOTIFICATIONS_PAGE_MAX, `limit must be at most ${NOTIFICATIONS_PAGE_MAX}`)
    .default(NOTIFICATIONS_PAGE_SIZE),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationList = z.object({
  notifications: z.array(notificationView),
  /** Pass it as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  unreadCount: z.number(),
  /** Of unreadCount, the new-message entries: unread conversations, counted on the Mailbox badge rather than the bell. */
  unreadConversations: z.number(),
});
export type NotificationList = z.infer<typeof notificationList>;

export const notificationParams = z.object({ notificationId: z.uuid('Unknown notification') });

export const notificationPreferences = z.object({
  preferences: z.array(notificationPreference.extend({ type: z.enum(NOTIFICATION_TYPES), label: z.string() })),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

const CHANNELS = ['inApp', 'email'];
const channelsInput = z
  .looseObject(
    {
      inApp: z.boolean({ error: 'inApp must be true or false' }).optional(),
      email: z.enum(EMAIL_MODES, { error: `email must be one of ${EMAIL_MODES.join(', ')}` }).optional(),
    },
    { error: 'Give the channels of this type: { inApp, email }' },
  )
  .superRefine((o, ctx) => {
    for (const k of Object.keys(o))
      if (!CHANNELS.includes(k)) ctx.addIssue({ code: 'custom', path: [k], message: `Unknown channel (the channels are inApp and email)` });
  });

/** PUT: only the types given change; the others keep what they were. */
export const notificationPreferencesInput = z.object({
  preferences: z
    .record(str().max(100), channelsInput, { error: 'preferences must map a notification type to its channels' })
    .superRefine((p, ctx) => {
      const keys = Object.keys(p);
      if (!keys.length) ctx.addIssue({ code: 'custom', message: 'Give at least one notification type' });
      for (const k of keys)
        if (!(NOTIFICATION_TYPES as readonly string[]).includes(k))
          ctx.addIssue({ code: 'custom', path: [k], message: `Unknown notification type (one of ${NOTIFICATION_TYPES.join(', ')})` });
    })
    .transform((p) => p as Partial<Record<NotificationType, { inApp?: boolean; email?: EmailMode }>>),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInput>;

export const unsubscribeQuery = z.object({
  token: str({ error: 'The unsubscribe link is incomplete' })
    .min(1, 'The unsubscribe link is incomplete')
    .max(500, 'This unsubscribe link is not valid'),
});

export const okResult = z.object({ ok: z.literal(true) });
