import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminUserRow } from '@shared/admin-schemas';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
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

/** Under a paged list: "Page 2 of 5 · 110 users", then Previous and Next. */
export function Pager({ page, pages, summary, onPage }: { page: number; pages: number; summary: string; onPage: (page: number) => void }) {
  return (
    <div className="mt-4 flex items-center justify-between text-sm text-slate-700">
      <span>
        Page {page} of {pages} · {summary}
      </span>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}

/** A detail panel's card while its query loads or after it failed; null once it has data. */
export function PanelPending({ query, errorTitle }: { query: UseQueryResult<unknown>; errorTitle: string }) {
  if (query.isPending)
    return (
      <Card>
        <TableSkeleton />
      </Card>
    );
  if (query.isError)
    return (
      <Card>
        <LoadError title={errorTitle} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      </Card>
    );
  return null;
}
