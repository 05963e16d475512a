import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { ApiError } from '@web/lib/api';
import { formatDay } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { blocksQuery, unblockPerson } from './api/mailbox';

/** Settings: the people the viewer blocked in the mailbox, each with Unblock. */
export function BlockedPeopleCard() {
  const { data, error, refetch } = useQuery(blocksQuery);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const unblock = async (id: string) => {
    setBusy(id);
    setFailure(null);
    try {
      await unblockPerson(id);
      await queryClient.invalidateQueries({ queryKey: queryKeys.mailbox });
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : 'Could not unblock. Please try again.');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Blocked people</h2>
      <p className="mt-1 text-sm text-slate-600">People you blocked cannot message you, and you cannot message them.</p>
      <div className="mt-4">
        {error && !data ? (
          <LoadError title="Your blocked list could not be loaded" error={error} onRetry={() => void refetch()} />
        ) : !data ? (
          <Skeleton className="h-10 w-full" />
        ) : data.items.length === 0 ? (
          <p className="text-sm text-slate-700">You have not blocked anyone.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Blocked people">
            {data.items.map(({ user, blockedAt }) => (
              <li key={user.id} className="flex items-center gap-3 py-2.5">
                <img
                  src={user.profileImage}
                  alt=""
                  className="h-9 w-9 rounded-full border border-slate-200 object-cover"
                  width={36}
                  height={36}
                />
                <div className="min-w-0 flex-1">
                  <Link to={paths.mailboxConversation(user.id)} className="block truncate font-medium text-slate-900 hover:underline">
                    {user.name}
                  </Link>
                  <p className="text-xs text-slate-600">Blocked {formatDay(blockedAt)}</p>
                </div>
                <Button variant="secondary" className="px-3 py-1.5" loading={busy === user.id} onClick={() => void unblock(user.id)}>
                  Unblock<span className="sr-only"> {user.name}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
        {failure && (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700">
            {failure}
          </p>
        )}
      </div>
    </Card>
  );
}
