import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BookOpen, CalendarDays, ExternalLink, MapPin, MessageSquare, Pencil, Plus, Star } from 'lucide-react';
import { formatPrice } from '@shared/courses';
import type { EducatorProfile } from '@shared/educators-schemas';
import { isNotFound } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { Markdown } from '@web/components/markdown';
import { safeHref } from '@web/lib/safe-href';
import NotFoundPage from '@web/components/not-found-page';
import { Badge } from '@web/components/ui/badge';
import { isUuid } from '@web/lib/ids';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatDate, plural } from '@web/lib/format';
import { educatorQuery } from './api/educators';
import { paths } from '@web/lib/paths';
import { LoadError } from '@web/components/ui/load-error';

/** /educator/:id — the public profile: who they are, what they teach, their courses. */
export default function EducatorPage() {
  const { id } = useParams();
  const valid = isUuid(id);
  const { data, error, refetch } = useQuery({ ...educatorQuery(id ?? ''), enabled: valid });
  if (!valid) return <NotFoundPage />;
  if (error && !data) {
    if (isNotFound(error)) return <NotFoundPage />;
    return (
      <LoadError
        title="This profile could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }
  if (!data) return <ProfileSkeleton />;
  return <Profile educator={data} />;
}

function ProfileSkeleton() {
  return (
    <div className="mx-auto max-w-5xl" role="status" aria-label="Loading the profile">
      <div className="flex flex-wrap items-center gap-6">
        <Skeleton className="h-28 w-28 rounded-full" />
        <div className="flex-1 space-y-3">
          <Skeleton className="h-8 w-1/2" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </div>
      </div>
      <Skeleton className="mt-8 h-32 w-full rounded-2xl" />
      <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-64 rounded-2xl" />
        <Skeleton className="h-64 rounded-2xl" />
        <Skeleton className="h-64 rounded-2xl" />
      </div>
    </div>
  );
}

export function RatingSummary({ avg, count }: { avg: number; count: number }) {
  if (!count) return <span className="text-sm text-slate-600">No reviews yet</span>;
  return (
    <span
      className="inline-flex items-center gap-1.5 text-sm"
      role="img"
      aria-label={`Rated ${avg.toFixed(1)} out of 5 from ${plural(count, 'review')}`}
    >
      <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
      <span aria-hidden="true">
        <span className="font-semibold text-slate-900">{avg.toFixed(1)}</span>{' '}
        <span className="text-slate-600">({plural(count, 'review')})</span>
      </span>
    </span>
  );
}

const linkLabel = (href: string) => {
  try {
    const u = new URL(href);
    return (u.hostname.replace(/^www\./, '') + (u.pathname !== '/' ? u.pathname : '')).slice(0, 60);
  } catch {
    return href;
  }
};

function Profile({ educator: e }: { educator: EducatorProfile }) {
  const visible = e.courses.filter((c) => e.isMe || c.status === 'published');
  const published = visible.filter((c) => c.status === 'published');
  const drafts = visible.filter((c) => c.status !== 'published');
  return (
    <div className="mx-auto max-w-5xl">
      <header className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <img
          src={e.profileImage}
          alt={e.name}
          className="h-28 w-28 shrink-0 rounded-full border border-slate-200 object-cover shadow-sm"
          width={112}
          height={112}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h1 className="break-words text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{e.name}</h1>
              {e.headline && <p className="mt-1 break-words text-lg text-slate-700">{e.headline}</p>}
            </div>
            {!e.isMe && (
              <ButtonLink to={paths.mailboxConversation(e.userId)} variant="secondary">
                <MessageSquare className="h-4 w-4" aria-hidden="true" /> Message
              </ButtonLink>
            )}
            {e.isMe && (
              <div className="flex flex-wrap gap-2">
                <ButtonLink to={paths.editEducator(e.userId)} variant="secondary">
                  <Pencil className="h-4 w-4" aria-hidden="true" /> Edit profile
                </ButtonLink>
                <ButtonLink to={paths.newCourse}>
                  <Plus className="h-4 w-4" aria-hidden="true" /> New course
                </ButtonLink>
              </div>
            )}
          </div>
          <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-700">
            <RatingSummary avg={e.ratingAvg} count={e.ratingCount} />
            {e.city && (
              <span className="inline-flex items-center gap-1.5">
                <MapPin className="h-4 w-4 text-slate-500" aria-hidden="true" /> {e.city}
              </span>
            )}
            <span className="inline-flex items-center gap-1.5">
              <BookOpen className="h-4 w-4 text-slate-500" aria-hidden="true" /> {plural(published.length, 'published course')}
            </span>
          </div>
          {e.subjects.length > 0 && (
            <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Subjects">
              {e.subjects.map((s) => (
                <li
                  key={s}
                  className="rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-medium text-brand-800 ring-1 ring-inset ring-brand-100"
                >
                  {s}
                </li>
              ))}
            </ul>
          )}
        </div>
      </header>

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="about-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm lg:col-span-2">
          <h2 id="about-heading" className="text-lg font-semibold text-slate-900">
            About {e.name.split(' ')[0] || e.name}
          </h2>
          <div className="mt-3">{e.bio ? <Markdown source={e.bio} /> : <p className="text-slate-600">No bio yet.</p>}</div>
        </section>
        <aside aria-labelledby="links-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="links-heading" className="text-lg font-semibold text-slate-900">
            Links
          </h2>
          {e.links.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No links shared.</p>
          ) : (
            <ul className="mt-3 space-y-2 text-sm">
              {e.links.map((l) => {
                const href = safeHref(l);
                return (
                  <li key={l} className="min-w-0">
                    {href ? (
                      <a
                        href={href}
                        target="_blank"
                        rel="noopener noreferrer nofollow"
                        className="inline-flex max-w-full items-center gap-1.5 font-medium text-brand-700 hover:underline"
                      >
                        <ExternalLink className="h-4 w-4 shrink-0" aria-hidden="true" /> <span className="truncate">{linkLabel(href)}</span>
                      </a>
                    ) : (
                      <span className="break-all text-slate-700">{l}</span>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {e.isMe && (
            <p className="mt-5 border-t border-slate-100 pt-4 text-xs text-slate-600">
              Payouts: {e.payoutsReady ? 'ready' : 'not set up yet (coming next)'} ·{' '}
              <Link to={paths.educatorOnboard} className="font-semibold text-brand-700 hover:underline">
                Status
              </Link>
            </p>
          )}
        </aside>
      </div>

      <section aria-labelledby="courses-heading" className="mt-10">
        <h2 id="courses-heading" className="text-xl font-bold text-slate-900">
          {e.isMe ? 'Your courses' : `Courses by ${e.name}`}
        </h2>
        {visible.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
            <BookOpen className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
            <p className="mt-3 font-semibold text-slate-900">{e.isMe ? 'You have no courses yet' : 'No published courses yet'}</p>
            <p className="mt-1 text-sm text-slate-600">{e.isMe ? 'Create a course, add a session, and publish it.' : 'Check back soon.'}</p>
            {e.isMe && (
              <ButtonLink to={paths.newCourse} className="mt-4">
                Create your first course
              </ButtonLink>
            )}
          </div>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {[...published, ...drafts].map((c) => (
              <CourseTile key={c.id} course={c} owner={e.isMe} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CourseTile({ course: c, owner }: { course: EducatorProfile['courses'][number]; owner: boolean }) {
  const href = owner && c.status !== 'published' ? paths.editCourse(c.id) : paths.course(c.id);
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow-md focus-within:ring-2 focus-within:ring-brand-500">
      {c.coverImage ? (
        <img src={c.coverImage} alt="" loading="lazy" className="aspect-[16/9] w-full bg-slate-100 object-cover" />
      ) : (
        <div
          className="flex aspect-[16/9] w-full items-center justify-center bg-gradient-to-br from-brand-50 to-slate-100 text-brand-700"
          aria-hidden="true"
        >
          <BookOpen className="h-10 w-10 opacity-70" strokeWidth={1.5} />
        </div>
      )}
      <div className="flex flex-1 flex-col p-4">
        {owner && c.status !== 'published' && (
          <div className="mb-2">
            <Badge tone={c.status === 'draft' ? 'amber' : 'slate'}>{c.status === 'draft' ? 'Draft' : 'Archived'}</Badge>
          </div>
        )}
        <h3 className="line-clamp-2 break-words font-semibold leading-snug text-slate-900 group-hover:text-brand-700">
          <Link to={href} className="after:absolute after:inset-0 focus:outline-none">
            {c.title}
          </Link>
        </h3>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{c.summary}</p>
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
          <RatingSummary avg={c.ratingAvg} count={c.ratingCount} />
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="h-4 w-4 text-slate-500" aria-hidden="true" />{' '}
            {c.nextStartOn ? `Starts ${formatDate(c.nextStartOn)}` : 'No upcoming session'}
          </span>
        </div>
        <div className="mt-auto flex items-center justify-between pt-3">
          <p className="text-lg font-bold text-slate-900">{formatPrice(c.priceCents, c.currency)}</p>
          {owner && (
            <Link
              to={paths.editCourse(c.id)}
              className="relative z-10 rounded-lg px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50"
              aria-label={`Edit ${c.title}`}
            >
              Edit
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}
