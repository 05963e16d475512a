import type { AdminUserRow } from '@shared/admin-schemas';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';

/** Pieces the admin console's sections share. */
export function TableSkeleton() {
  return (
    <div className="space-y-2" aria-label="Loading" role="status">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  );
}

export function UserBadges({ u }: { u: Pick<AdminUserRow, 'role' | 'banned' | 'verified' | 'twoFactorEnabled'> }) {
  return (
    <span className="flex flex-wrap gap-1">
      {u.role === 'admin' && <Badge tone="brand">Admin</Badge>}
      {u.banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}
      {!u.verified && <Badge tone="amber">Unverified</Badge>}
      {u.twoFactorEnabled && <Badge>2FA</Badge>}
    </span>
  );
}
