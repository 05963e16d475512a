import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Plus, Search, UsersRound } from 'lucide-react';
import { CLUB_CATEGORIES, CLUB_SORTS } from '@shared/clubs';
import type { ClubSearchQuery } from '@shared/clubs-schemas';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { Select } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { plural } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { searchClubsQuery } from './api/clubs';
import { ClubCard, ClubCardSkeleton } from './components/club-bits';

const SORT_LABELS: Record<(typeof CLUB_SORTS)[number], string> = {
  relevance: 'Best match',
  members: 'Most members',
  next_event: 'Next event',
};
const KEYS = ['q', 'category', 'city', 'online', 'upcoming', 'sort', 'page'] as const;

/** /club/search: full-text, typo-tolerant search with filters, sorts and pages; everything in the URL. */
/** "12 clubs", "1,000+ clubs" (counting stopped there), "about 2,100 clubs" (estimated). */
function totalText(total: number, totalIs: 'exact' | 'at-least' | 'about'): string {
  if (totalIs === 'at-least') return `${total.toLocaleString('en')}+ clubs`;
  if (totalIs === 'about') {
    const rounded = total < 100 ? total : Number(total.toPrecision(2));
    return `about ${rounded.toLocaleString('en')} clubs`;
  }
  return plural(total, 'club');
}

export default function ClubSearchPage() {
  const [params, setParams] = useSearchParams();
  const query = Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v)) as Record<string, string>;
  const apiQuery: ClubSearchQuery = { ...query, page: query.page ? Number(query.page) : 1 } as ClubSearchQuery;
  const results = useQuery(searchClubsQuery(apiQuery));
  const [text, setText] = useState(query.q ?? '');
  const [city, setCity] = useState(query.city ?? '');

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update({ q: text.trim() || undefined, city: city.trim() || undefined });
  };
  const page = Number(apiQuery.page ?? 1);
  const data = results.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div>
      <PageHeader
        title="Find a club"
        subtitle="People who meet to play, make, learn and talk, near you and online."
        actions={
          <ButtonLink to={paths.newClub}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Start a club
          </ButtonLink>
        }
      />
      <form
        role="search"
        onSubmit={submit}
        className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <Field
          label="Search clubs"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="chess, running, photography…"
          maxLength={200}
        />
        <Field label="City" value={city} onChange={(e) => setCity(e.target.value)} placeholder="Any city" maxLength={120} />
        <Button type="submit">
          <Search className="h-4 w-4" aria-hidden="true" />
          Search
        </Button>
      </form>
      <div className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Select label="Category" value={query.category ?? ''} onChange={(e) => update({ category: e.target.value || undefined })}>
          <option value="">All categories</option>
          {CLUB_CATEGORIES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </Select>
        <Select label="Where" value={query.online ?? ''} onChange={(e) => update({ online: e.target.value || undefined })}>
          <option value="">In person or online</option>
          <option value="true">Online</option>
          <option value="false">In person</option>
        </Select>
        <Select label="Events" value={query.upcoming ?? ''} onChange={(e) => update({ upcoming: e.target.value || undefined })}>
          <option value="">Any</option>
          <option value="true">Has upcoming events</option>
        </Select>
        <Select
          label="Sort by"
          value={query.sort ?? 'relevance'}
          onChange={(e) => update({ sort: e.target.value === 'relevance' ? undefined : e.target.value })}
        >
          {CLUB_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </Select>
      </div>

      <section aria-labelledby="results-title" className="mt-6" aria-busy={results.isFetching}>
        <h2 id="results-title" className="sr-only">
          Results
        </h2>
        {results.isPending ? (
          <div role="status" aria-label="Searching" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 6 }, (_, i) => (
              <ClubCardSkeleton key={i} />
            ))}
          </div>
        ) : results.isError ? (
          <LoadError
            title="The search did not work"
            error={results.error}
            onRetry={() => results.refetch()}
            retrying={results.isFetching}
          />
        ) : data && data.items.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
            <UsersRound className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
            <p className="mt-3 text-lg font-semibold text-slate-900">No club like this yet</p>
            <p className="mt-1 text-slate-600">Why not start it? Others are probably looking for the same thing.</p>
            <ButtonLink to={paths.newClub} className="mt-4">
              Start a club
            </ButtonLink>
          </div>
        ) : data ? (
          <>
            <p className="mb-3 text-sm text-slate-700" role="status">
              {totalText(data.total, data.totalIs)}
              {data.correctedQuery && (
                <>
                  {' '}
                  for <strong>{data.correctedQuery}</strong> (we corrected the spelling)
                </>
              )}
            </p>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data.items.map((c) => (
                <li key={c.id} className="flex">
                  <ClubCard club={c} />
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3">
                <Button variant="secondary" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
                  Previous
                </Button>
                <span className="text-sm text-slate-700">
                  Page {page} of {pages}
                </span>
                <Button variant="secondary" disabled={page >= pages} onClick={() => update({ page: String(page + 1) })}>
                  Next
                </Button>
              </nav>
            )}
          </>
        ) : null}
      </section>
    </div>
  );
}
