/**
 * The query cache's keys, one factory per query. Each feature's queryOptions takes its key
 * from here, and a feature that must refresh another's data after a write (an enrolment
 * changes the dashboard) invalidates by the same key without importing that feature.
 */
export const queryKeys = {
  me: ['me'] as const,
  signInSessions: ['me', 'sessions'] as const,
  currentSignInSession: ['me', 'session'] as const,
  twoFactor: ['me', 'two-factor'] as const,
  linkedAccounts: ['me', 'linked-accounts'] as const,
  /** Every course query: a course, its roster. */
  courses: ['course'] as const,
  course: (id: string) => ['course', id] as const,
  roster: (courseId: string) => ['course', courseId, 'roster'] as const,
  /** Every course listing: search and explore. */
  courseLists: ['courses'] as const,
  courseSearch: (q: unknown) => ['courses', 'search', q] as const,
  explore: ['courses', 'explore'] as const,
  educator: (id: string) => ['educator', id] as const,
  dashboard: ['dashboard'] as const,
  paymentsConfig: ['payments', 'config'] as const,
  checkoutSummary: (courseId: string, sessionId: string) => ['payments', 'checkout', courseId, sessionId] as const,
  checkoutVerification: (checkoutId: string) => ['payments', 'verify', checkoutId] as const,
  paymentHistory: ['payments', 'history'] as const,
  /** Both forms of the payouts query (stored and re-read from the provider). */
  payouts: ['payments', 'payouts'] as const,
  payoutsFrom: (source: 'fresh' | 'stored') => ['payments', 'payouts', source] as const,
  devOutbox: ['dev', 'outbox'] as const,
  /** Every mailbox query: conversation lists, threads, blocks. */
  mailbox: ['mailbox'] as const,
  conversations: (q: string) => ['mailbox', 'conversations', q] as const,
  mailboxBlocks: ['mailbox', 'blocks'] as const,
};
