import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import NotFoundPage from '@web/components/not-found-page';
import { Card } from '@web/components/ui/card';
import { ButtonLink } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { LoadError } from '@web/components/ui/load-error';
import { isNotFound } from '@web/lib/api';
import { isUuid } from '@web/lib/ids';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useViewer } from '@web/lib/viewer';
import { markNotificationRead, notificationQuery } from './api/notifications';
import { TypeIcon } from './type-icon';
import { fullTime } from './time-ago';

/** What the link of each kind of notification says. */
function linkLabel(link: string) {
  if (/^\/course\/[^/]+\/session\/[^/]+\/classroom$/.test(link)) return 'Open the classroom';
  if (link.startsWith('/course/checkout')) return 'Claim your seat';
  if (link.startsWith('/course/')) return 'Go to the course';
  if (link.startsWith('/mailbox/')) return 'Open the conversation';
  if (link.startsWith('/user/settings')) return 'See your payments';
  if (link.startsWith('/educator/')) return 'Open your dashboard';
  if (/^\/club\/[^/]+\/event\//.test(link)) return 'Go to the event';
  if (link === '/club/search') return 'Find another club';
  if (link.startsWith('/club/')) return 'Go to the club';
  return 'Open';
}

/** /mailbox/:userID/:notificationID: one notification in full (its owner only); opening it marks it read. */
export default function NotificationPage() {
  const { userID = '', notificationID = '' } = useParams();
  const me = useViewer();
  const mine = userID === me.id && isUuid(notificationID);
  if (!mine) return <NotFoundPage />;
  return <Notification id={notificationID} />;
}

function Notification({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const { data, error, refetch, isFetching } = useQuery(notificationQuery(id));
  const read = useMutation({
    mutationFn: () => markNotificationRead(id),
    onSuccess: (n) => {
      queryClient.setQueryData(queryKeys.notification(id), n);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications, predicate: (q) => q.queryKey[1] === 'list' });
    },
  });
  const marked = useRef(false);
  useEffect(() => {
    if (data && !data.read && !marked.current) {
      marked.current = true;
      read.mutate();
    }
  }, [data, read]);

  if (error && isNotFound(error)) return <NotFoundPage />;
  return (
    <div className="mx-auto max-w-2xl">
      <Link to={paths.notifications} className="mb-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        All notifications
      </Link>
      {error ? (
        <LoadError title="This notification could not be loaded" error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : !data ? (
        <Skeleton className="h-48" />
      ) : (
        <Card>
          <div className="flex items-start gap-4">
            <TypeIcon type={data.type} className="h-12 w-12" />
            <div className="min-w-0 flex-1">
              <h1 className="break-words text-xl font-bold text-slate-900">{data.title}</h1>
              <p className="mt-1 text-sm text-slate-600">
                <time dateTime={data.createdAt}>{fullTime(data.createdAt)}</time>
              </p>
            </div>
          </div>
          <p className="mt-4 break-words leading-relaxed text-slate-800">{data.body}</p>
          <div className="mt-6">
            <ButtonLink to={data.link}>
              {linkLabel(data.link)}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </ButtonLink>
          </div>
        </Card>
      )}
    </div>
  );
}
