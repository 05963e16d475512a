import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import NotFoundPage from '@web/components/not-found-page';
import { Card, PageHeader } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { EditorSkeleton } from '@web/components/ui/skeleton';
import { isNotFound } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { clubQuery, createEvents } from './api/clubs';
import { EventForm } from './components/event-form';

/** /club/:clubID/new-event: organisers only (anyone else sees the not-found page). */
export default function NewEventPage() {
  const { clubID = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const q = useQuery(clubQuery(clubID));
  if (q.isPending) return <EditorSkeleton label="Loading the club" />;
  if (q.isError) {
    if (isNotFound(q.error)) return <NotFoundPage />;
    return <LoadError title="The club could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />;
  }
  if (!q.data.canManage) return <NotFoundPage />;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="New event" subtitle={q.data.name} />
      <Card>
        <EventForm
          submitLabel="Create the event"
          onSubmit={async (input) => {
            const { ids } = await createEvents(clubID, input);
            await queryClient.invalidateQueries({ queryKey: queryKeys.clubs });
            await queryClient.invalidateQueries({ queryKey: queryKeys.clubLists });
            navigate(paths.clubEvent(clubID, ids[0]), {
              state: { flash: { text: ids.length > 1 ? `${ids.length} events created` : 'Event created' } },
            });
          }}
        />
      </Card>
    </div>
  );
}
