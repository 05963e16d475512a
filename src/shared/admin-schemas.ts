import { z } from 'zod';
import { str } from './input-schemas.js';

/** The admin console's API (/api/admin/*, docs/decisions/0014-admin-console.md). */

export const ADMIN_PAGE_MAX = 100;

export const userListQuery = z.object({
  q: str().trim().max(200).optional(),
  role: z.enum(['user', 'admin']).optional(),
  banned: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PAGE_MAX).default(25),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const adminUserRow = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  verified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

export const userList = z.object({ users: z.array(adminUserRow), total: z.number(), page: z.number(), pageSize: z.number() });
export type UserList = z.infer<typeof userList>;

/**
 * A purchase's state from its payments: refunded (all the money back), partially_refunded,
 * refund_pending (owed, not made yet), installment_failed, failed (ended without money taken),
 * installments (under way), paid; a checkout never paid: checkout_open (still payable),
 * checkout_abandoned (older than the provider's checkout lifetime), checkout_expired.
 */
export const PURCHASE_STATES = [
  'paid',
  'installments',
  'refund_pending',
  'partially_refunded',
  'refunded',
  'installment_failed',
  'failed',
  'checkout_open',
  'checkout_abandoned',
  'checkout_expired',
] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

export const purchaseRecord = z.object({
  id: z.string(),
  kind: z.string(),
  courseId: z.string().nullable(),
  /** The course's title, or the plan's name. */
  title: z.string(),
  amountCents: z.number(),
  paidCents: z.number(),
  refundedCents: z.number(),
  refundPendingCents: z.number(),
  currency: z.string(),
  installments: z.number().nullable(),
  installmentsPaid: z.number(),
  state: z.enum(PURCHASE_STATES),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
});
export type PurchaseRecordView = z.infer<typeof purchaseRecord>;

export const adminUserDetail = z.object({
  user: adminUserRow.extend({ city: z.string().nullable(), image: z.string().nullable() }),
  signInSessions: z.array(
    z.object({
      id: z.string(),
      ipAddress: z.string().nullable(),
      userAgent: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  enrolments: z.array(
    z.object({
      id: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
      sessionId: z.string(),
      sessionStartsOn: z.string(),
      sessionEndsOn: z.string(),
      status: z.string(),
      createdAt: z.string(),
    }),
  ),
  /** Purchases with money taken (or owed back): their state from the payments, not the purchase's own status. */
  payments: z.array(purchaseRecord),
  /** Checkouts never paid: still open, abandoned or expired (not payments). */
  checkouts: z.array(purchaseRecord),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

export const reasonInput = z.object({ reason: str().trim().min(1, 'Give a reason').max(500, 'Keep the reason under 500 characters') });
export const optionalReasonInput = z.object({ reason: str().trim().max(500, 'Keep the reason under 500 characters').optional() });
export const roleInput = z.object({ role: z.enum(['user', 'admin']) });
export const deleteUserInput = z.object({
  /** The user's email, typed again: a deletion cannot be undone. */
  confirmEmail: str().trim().min(1, 'Type the email of the account').max(320),
  reason: str().trim().max(500).optional(),
});
export const inviteInput = z.object({
  email: z.email('Enter a valid email').max(320),
  firstName: str().trim().min(1, 'First name is required').max(50),
  lastName: str().trim().max(50).default(''),
});

export const okResult = z.object({ ok: z.literal(true) });
export const inviteResult = z.object({ id: z.string() });

export const failedJobs = z.object({
  /** Jobs that failed every attempt (kept `keepDays` after they gave up; an admin may queue one again). */
  jobs: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      attempts: z.number(),
      lastError: z.string().nullable(),
      createdAt: z.string(),
      finishedAt: z.string().nullable(),
    }),
  ),
  /** The jobs that finished most recently (newest first, at most 100), kept `keepDays`. */
  finished: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      outcome: z.string(),
      attempts: z.number(),
      ranBy: z.string().nullable(),
      lastError: z.string().nullable(),
      createdAt: z.string(),
      startedAt: z.string().nullable(),
      finishedAt: z.string(),
    }),
  ),
  keepDays: z.number(),
});
export type FailedJobs = z.infer<typeof failedJobs>;

export const refundsDue = z.object({
  refunds: z.array(
    z.object({
      purchaseId: z.string(),
      userId: z.string(),
      /** The person owed, by name and email. */
      userName: z.string().nullable(),
      userEmail: z.string().nullable(),
      amountCents: z.number(),
      currency: z.string(),
      attempts: z.number(),
      lastError: z.string().nullable(),
    }),
  ),
});
export type RefundsDue = z.infer<typeof refundsDue>;

export const auditQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
export const auditLog = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      adminId: z.string(),
      adminEmail: z.string().nullable(),
      /** Who acted, by name (null once the account is gone). */
      adminName: z.string().nullable(),
      action: z.string(),
      targetId: z.string().nullable(),
      /** What was acted on: a person (by name and email), a job (by its kind) or a club (by the name it had). */
      target: z
        .object({ kind: z.enum(['user', 'job', 'club', 'other']), id: z.string(), name: z.string(), email: z.string().nullable() })
        .nullable(),
      reason: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type AuditLog = z.infer<typeof auditLog>;

export const adminMe = z.object({ admin: z.boolean() });

/** Messages members reported in the mailbox (newest first), with who sent and who reported them. */
export const messageReports = z.object({
  reports: z.array(
    z.object({
      id: z.string(),
      messageId: z.string(),
      body: z.string(),
      reason: z.string(),
      sender: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      reporter: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      sentAt: z.string(),
      reportedAt: z.string(),
    }),
  ),
});
export type MessageReports = z.infer<typeof messageReports>;

/** Classroom posts members reported (newest first), with the post's author and the reporter (ADR 0072). */
export const classroomReports = z.object({
  reports: z.array(
    z.object({
      id: z.string(),
      postId: z.string(),
      /** The classroom's page. */
      link: z.string(),
      body: z.string(),
      reason: z.string(),
      author: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      reporter: z.object({ id: z.string(), name: z.string(), email: z.string() }),
      reportedAt: z.string(),
    }),
  ),
});
export type ClassroomReports = z.infer<typeof classroomReports>;

/** Clubs in the admin console: search by the club's name or its owner's name or email, newest first. */
export const clubListQuery = z.object({
  q: str().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PAGE_MAX).default(25),
});
export type ClubListQuery = z.infer<typeof clubListQuery>;

const clubPerson = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const adminClubRow = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  city: z.string().nullable(),
  online: z.boolean(),
  visibility: z.enum(['public', 'approval']),
  /** The active owner (null: none left, which the use cases never leave for long). */
  owner: clubPerson.nullable(),
  memberCount: z.number(),
  /** Every event of the club, past, cancelled and to come. */
  eventCount: z.number(),
  upcomingEventCount: z.number(),
  createdAt: z.string(),
});
export const clubList = z.object({ clubs: z.array(adminClubRow), total: z.number(), page: z.number(), pageSize: z.number() });
export type ClubList = z.infer<typeof clubList>;

export const adminClubDetail = adminClubRow.extend({
  /** The description's first 160 characters as plain text (the club card's line). */
  summary: z.string(),
  rules: z.string(),
  joinQuestion: z.string().nullable(),
  organisers: z.array(clubPerson),
  upcomingEvents: z.array(
    z.object({ id: z.string(), title: z.string(), startsAt: z.string(), goingCount: z.number(), capacity: z.number().nullable() }),
  ),
});
export type AdminClubDetail = z.infer<typeof adminClubDetail>;

export const adminDeleteClubInput = z.object({
  /** The club's name, typed again: a deletion cannot be undone. */
  confirmName: str().trim().min(1, 'Type the name of the club').max(200),
  reason: str().trim().min(1, 'Give a reason').max(500, 'Keep the reason under 500 characters'),
});
