import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Panel } from '@web/components/ui/panel';
import { Skeleton } from '@web/components/ui/skeleton';
import { LoadError } from '@web/components/ui/load-error';
import { paths } from '@web/lib/paths';
import { exploreClubsQuery, myClubsQuery } from './api/clubs';
import { ClubCard, ClubCardSkeleton, EventRow } from './components/club-bits';

/** The clubs part of /explore: a shelf of clubs (your city first) and upcoming public events. */
export function ClubsExploreSection() {
  const q = useQuery(exploreClubsQuery);
  return (
    <section aria-labelledby="clubs-shelf" className="mt-10">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="clubs-shelf" className="text-xl font-bold tracking-tight text-slate-900">
            Clubs
          </h2>
          <p className="text-sm text-slate-600">People who meet around what they love, near you first.</p>
        </div>
        <Link to={paths.clubSearch()} className="text-sm font-semibold text-brand-700 hover:underline">
          See all<span className="sr-only"> clubs</span>
        </Link>
      </div>
      {q.isPending ? (
        <div role="status" aria-label="Loading clubs" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <ClubCardSkeleton key={i} />
          ))}
        </div>
      ) : q.isError ? (
        <LoadError title="Clubs could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />
      ) : q.data.clubs.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          No clubs yet.{' '}
          <Link to={paths.newClub} className="font-semibold text-brand-700 hover:underline">
            Start the first one
          </Link>
          .
        </p>
      ) : (
        <>
          <ul className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 lg:grid-cols-4">
            {q.data.clubs.slice(0, 4).map((c) => (
              <li key={c.id} className="flex w-[80%] shrink-0 snap-start sm:w-auto">
                <ClubCard club={c} />
              </li>
            ))}
          </ul>
          {q.data.events.length > 0 && (
            <>
              <h3 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Upcoming club events</h3>
              <ul className="grid gap-3 lg:grid-cols-2">
                {q.data.events.slice(0, 6).map((e) => (
                  <EventRow key={e.id} event={e} showClub />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The clubs part of /dashboard: your next club events and the clubs you belong to. */
export function MyClubsPanel() {
  const q = useQuery(myClubsQuery);
  return (
    <Panel id="my-clubs" title="Your clubs and events">
      {q.isPending ? (
        <div role="status" aria-label="Loading your clubs" className="space-y-2">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : q.isError ? (
        <LoadError title="Your clubs could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />
      ) : q.data.clubs.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-600">
          You're not in a club yet.{' '}
          <Link to={paths.clubSearch()} className="font-semibold text-brand-700 hover:underline">
            Find a club
          </Link>{' '}
          or{' '}
          <Link to={paths.newClub} className="font-semibold text-brand-700 hover:underline">
            start one
          </Link>
          .
        </p>
      ) : (
        <div className="space-y-5">
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Next events</h3>
            {q.data.events.length ? (
              <ul className="space-y-2">
                {q.data.events.slice(0, 5).map((e) => (
                  <EventRow key={e.id} event={e} showClub />
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">No events you're going to yet.</p>
            )}
          </div>
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Clubs</h3>
            <ul className="flex flex-wrap gap-2">
              {q.data.clubs.map((c) => (
                <li key={c.id}>
                  <Link
                    to={paths.club(c.id)}
                    className="inline-block rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-brand-500 hover:text-brand-700"
                  >
                    {c.name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </Panel>
  );
}
