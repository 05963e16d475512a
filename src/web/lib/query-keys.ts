/**
 * The query cache's keys, one factory per query. Each feature's queryOptions takes its key
 * from here, and a feature that must refresh another's data after a write (an enrolment
 * changes the dashboard) invalidates by the same key without importing that feature.
 */
export const queryKeys = {
  me: ['me'] as const,
  appInfo: ['app-info'] as const,
  signInSessions: ['me', 'sessions'] as const,
  currentSignInSession: ['me', 'session'] as const,
  twoFactor: ['me', 'two-factor'] as const,
  linkedAccounts: ['me', 'linked-accounts'] as const,
  /** The account's learner profiles (family accounts, ADR 0074). */
  learnerProfiles: ['me', 'learners'] as const,
  learnerInvite: (token: string) => ['learner-invite', token] as const,
  /** Every course query: a course, its roster. */
  courses: ['course'] as const,
  course: (id: string) => ['course', id] as const,
  roster: (courseId: string) => ['course', courseId, 'roster'] as const,
  certificateRule: (courseId: string) => ['course', courseId, 'certificate-rule'] as const,
  /** Attendance (issue 25): a session's sheet, the learner's own record. */
  sessionAttendance: (courseId: string, sessionId: string) => ['attendance', courseId, sessionId] as const,
  myAttendance: ['attendance', 'mine'] as const,
  /** A session's classroom (its pages of posts). */
  classroom: (courseId: string, sessionId: string) => ['course', courseId, 'classroom', sessionId] as const,
  /** Every course listing: search and explore. */
  courseLists: ['courses'] as const,
  courseSearch: (q: unknown) => ['courses', 'search', q] as const,
  explore: ['courses', 'explore'] as const,
  educator: (id: string) => ['educator', id] as const,
  dashboard: ['dashboard'] as const,
  paymentsConfig: ['payments', 'config'] as const,
  /** The platform's fees and plans (GET /api/pricing). */
  pricing: ['payments', 'pricing'] as const,
  checkoutSummary: (courseId: string, sessionId: string, learners = '') => ['payments', 'checkout', courseId, sessionId, learners] as const,
  educatorPromoCodes: ['payments', 'promo-codes'] as const,
  adminPromoCodes: ['admin', 'promo-codes'] as const,
  checkoutVerification: (checkoutId: string) => ['payments', 'verify', checkoutId] as const,
  paymentHistory: ['payments', 'history'] as const,
  myInstallments: ['payments', 'installments'] as const,
  dropRefund: (courseId: string, sessionId: string) => ['payments', 'drop-refund', courseId, sessionId] as const,
  /** Both forms of the payouts query (stored and re-read from the provider). */
  payouts: ['payments', 'payouts'] as const,
  payoutsFrom: (source: 'fresh' | 'stored') => ['payments', 'payouts', source] as const,
  devOutbox: ['dev', 'outbox'] as const,
  /** Every admin console query (refreshed after an admin action). */
  admin: ['admin'] as const,
  adminMe: ['admin', 'me'] as const,
  adminUsers: (filter: unknown) => ['admin', 'users', filter] as const,
  adminUser: (id: string) => ['admin', 'user', id] as const,
  adminClubs: (filter: unknown) => ['admin', 'clubs', filter] as const,
  adminClub: (id: string) => ['admin', 'club', id] as const,
  adminJobs: ['admin', 'jobs'] as const,
  adminRefunds: ['admin', 'refunds'] as const,
  adminContactMessages: (page: number) => ['admin', 'contact-messages', page] as const,
  adminMessageReports: ['admin', 'message-reports'] as const,
  adminClassroomReports: ['admin', 'classroom-reports'] as const,
  adminAudit: ['admin', 'audit'] as const,
  /** Every notifications query: the lists, one notification, the preferences. */
  notifications: ['notifications'] as const,
  notificationList: (filter: 'all' | 'unread') => ['notifications', 'list', filter] as const,
  notification: (id: string) => ['notifications', 'one', id] as const,
  notificationPreferences: ['notifications', 'preferences'] as const,
  landing: ['landing'] as const,
  contactForm: ['contact', 'form'] as const,
  /** Every club query (a club, its members, its events); club listings under clubLists. */
  clubs: ['club'] as const,
  club: (id: string) => ['club', id] as const,
  clubMembers: (id: string) => ['club', id, 'members'] as const,
  clubEvent: (clubId: string, eventId: string) => ['club', clubId, 'event', eventId] as const,
  clubLists: ['clubs'] as const,
  clubSearch: (q: unknown) => ['clubs', 'search', q] as const,
  myClubs: ['clubs', 'mine'] as const,
  exploreClubs: ['clubs', 'explore'] as const,
  /** The app shell's unread badge (messages + notifications ...). */
  unread: ['unread'] as const,
  /** An educator's analytics for one range and course filter. */
  analytics: (educatorId: string, q: unknown) => ['analytics', educatorId, q] as const,
  /** Every mailbox query: conversation lists, conversations, blocks. */
  mailbox: ['mailbox'] as const,
  conversations: (q: string) => ['mailbox', 'conversations', q] as const,
  mailboxBlocks: ['mailbox', 'blocks'] as const,
};
