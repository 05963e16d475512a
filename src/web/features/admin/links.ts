/**
 * The admin console's sections, and a link to one of them (and a user in Users, a club in
 * Clubs): /admin?section=users&user=<id>, /admin?section=clubs&club=<id>.
 */
export type AdminTab = 'users' | 'clubs' | 'jobs' | 'refunds' | 'promo' | 'contact' | 'reports' | 'audit';

export const ADMIN_TABS: [AdminTab, string][] = [
  ['users', 'Users'],
  ['clubs', 'Clubs'],
  ['jobs', 'Failed jobs'],
  ['refunds', 'Refunds owed'],
  ['promo', 'Promo codes'],
  ['contact', 'Contact messages'],
  ['reports', 'Reported messages'],
  ['audit', 'Audit log'],
];

export function adminHref(tab: AdminTab, open?: string) {
  const params = new URLSearchParams({ section: tab });
  if (open) params.set(tab === 'clubs' ? 'club' : 'user', open);
  return `/admin?${params}`;
}
