/**
 * Every URL the web app links to, in one place: the spec's route table (src/shared/routes.ts)
 * as functions of their parameters. Ids are UUIDs, so they go into a path as they are.
 */
import { classroomPath } from '@shared/routes';

type Query = Record<string, string | number | boolean | undefined>;

/** "?a=1&b=2" without the empty values, or "" when nothing is left. */
function search(query: Query | URLSearchParams | undefined): string {
  const q =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query ?? {})
            .filter(([, v]) => v !== undefined && v !== '')
            .map(([k, v]) => [k, String(v)]),
        );
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const paths = {
  home: '/',
  login: (next?: string, reason?: string) => `/login${search({ next, reason })}`,
  signup: '/signup',
  verifyEmail: (email?: string) => `/verify-email${search({ email })}`,
  sendPasswordReset: '/send-password-reset',
  /** Where Google sends the visitor back (`error` names what went wrong). */
  googleLogin: (error?: string) => `/google-login${search({ error })}`,
  explore: '/explore',
  dashboard: '/dashboard',
  pricing: '/pricing',
  pricingComplete: (checkoutId: string) => `/pricing/complete${search({ session_id: checkoutId })}`,
  project: '/project',
  roadmap: '/roadmap',
  contact: '/contact',
  settings: '/user/settings',
  /** Settings, the account's learners (family accounts, ADR 0074). */
  learners: '/user/settings#learners',
  admin: '/admin',
  editUser: (id: string) => `/user/${id}/edit`,
  authTest: '/auth-test',
  clubs: '/club/search',
  club: (id: string) => `/club/${id}`,
  mailbox: '/mailbox',
  notifications: '/mailbox/notifications',
  /** One notification (the spec's /mailbox/{userID}/{notificationID}). */
  notification: (userId: string, id: string) => `/mailbox/${userId}/${id}`,
  /** The conversation with a person (the spec's /mailbox/:senderID). */
  mailboxConversation: (userId: string) => `/mailbox/${userId}`,

  courseSearch: (query?: Query | URLSearchParams) => `/course/search${search(query)}`,
  newCourse: '/course/new',
  /** A course page, optionally at one of its sections ("sessions", "reviews"). */
  course: (id: string, section?: string) => `/course/${id}${section ? `#${section}` : ''}`,
  editCourse: (id: string) => `/course/${id}/edit`,
  /** The roster page (the spec's /enrollment path). */
  courseRoster: (id: string) => `/course/${id}/enrollment`,
  reviewCourse: (id: string) => `/course/${id}/review`,
  newSession: (courseId: string) => `/course/${courseId}/session/new`,
  newClassTime: (courseId: string, sessionId: string) => `/course/${courseId}/session/${sessionId}/new-class-time`,
  /** The educator's attendance sheet of one session (issue 25). */
  sessionAttendance: (courseId: string, sessionId: string) => `/course/${courseId}/session/${sessionId}/attendance`,
  /** The enrol page (the spec's /enroll path). */
  enrol: (courseId: string, sessionId: string) => `/course/${courseId}/session/${sessionId}/enroll`,
  drop: (courseId: string, sessionId: string) => `/course/${courseId}/session/${sessionId}/drop`,
  /** A session's classroom (its educator and enrolled learners). */
  classroom: classroomPath,
  checkout: (courseId: string, sessionId: string) => `/course/checkout${search({ course: courseId, session: sessionId })}`,

  educator: (id: string) => `/educator/${id}`,
  editEducator: (id: string) => `/educator/${id}/edit`,
  educatorOnboard: '/educator/onboard',
  educatorBenefits: '/educator/benefits',
  educatorDashboard: '/educator/dashboard',
  educatorPromoCodes: '/educator/promo-codes',

  clubSearch: (query?: Query | URLSearchParams) => `/club/search${search(query)}`,
  newClub: '/club/new',
  editClub: (id: string, tab?: string) => `/club/${id}/edit${tab ? `#${tab}` : ''}`,
  newClubEvent: (clubId: string) => `/club/${clubId}/new-event`,
  clubEvent: (clubId: string, eventId: string) => `/club/${clubId}/event/${eventId}`,
  educatorAnalytics: (id: string, q: Record<string, string | undefined> = {}) => `/educator/${id}/analytics${search(q)}`,
} as const;
