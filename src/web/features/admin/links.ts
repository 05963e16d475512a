/** The admin console's sections, and a link to one of them (and a user in Users): /admin?section=users&user=<id>. */
export type AdminTab = 'users' | 'jobs' | 'refunds' | 'promo' | 'contact' | 'reports' | 'audit';

export const ADMIN_TABS: [AdminTab, string][] = [
  ['users', 'Users'],
  ['jobs', 'Failed jobs'],
  ['refunds', 'Refunds owed'],
  ['promo', 'Promo codes'],
  ['contact', 'Contact messages'],
  ['reports', 'Reported messages'],
  ['audit', 'Audit log'],
];

export function adminHref(tab: AdminTab, user?: string) {
  const params = new URLSearchParams({ section: tab });
  if (user) params.set('user', user);
  return `/admin?${params}`;
}
