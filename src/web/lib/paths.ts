/** Every URL the web app links to, in one place. */
export const paths = {
  home: '/',
  login: (next?: string, reason?: string) => {
    const q = new URLSearchParams();
    if (next) q.set('next', next);
    if (reason) q.set('reason', reason);
    const s = q.toString();
    return s ? `/login?${s}` : '/login';
  },
  signup: '/signup',
  verifyEmail: (email?: string) => (email ? `/verify-email?email=${encodeURIComponent(email)}` : '/verify-email'),
  sendPasswordReset: '/send-password-reset',
  explore: '/explore',
  dashboard: '/dashboard',
  courses: '/course/search',
  clubs: '/club/search',
  mailbox: '/mailbox',
  settings: '/user/settings',
  editUser: (id: string) => `/user/${id}/edit`,
  authTest: '/auth-test',
  pricing: '/pricing',
  project: '/project',
  roadmap: '/roadmap',
  contact: '/contact',
  educatorBenefits: '/educator/benefits',
} as const;
