import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Search, SearchX, SlidersHorizontal, X } from 'lucide-react';
import { CATEGORIES, CATEGORY_IDS, LEVELS, LEVEL_IDS, SEARCH_SORTS, CATALOGUE_PAGE_SIZE } from '@shared/courses';
import type { SearchQuery } from '@shared/courses-schemas';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { searchCoursesQuery } from './api/search';
import { CourseGrid, CourseGridSkeleton } from './components/course-card';
import { paths } from '@web/lib/paths';
import { resultTotal } from '@web/lib/format';
import { LoadError } from '@web/components/ui/load-error';

const PAGE_SIZE = CATALOGUE_PAGE_SIZE;
const SORT_LABELS: Record<(typeof SEARCH_SORTS)[number], string> = {
  relevance: 'Best match',
  soonest: 'Starting soonest',
  price: 'Lowest price',
  rating: 'Highest rated',
};
/** Filters (not the words, the sort or the page): what "Clear filters" removes. */
const FILTER_KEYS = ['category', 'level', 'format', 'city', 'free', 'minPrice', 'maxPrice', 'startsAfter', 'hasSeats', 'age'] as const;
/** The ages the age filter offers (the API takes any from 0 to 120). */
const AGES = Array.from({ length: 16 }, (_, i) => i + 3);

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | undefined =>
  v && (list as readonly string[]).includes(v) ? (v as T) : undefined;
const cents = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
const ageOf = (v: string | null) => (v && /^\d{1,3}$/.test(v) && Number(v) <= 120 ? Number(v) : undefined);

/** The search as the URL states it; unknown or malformed values are ignored. */
/** Results reachable through the pages (the first 1,000, as the API pages them). */
const PAGED_RESULTS = 1000;

function readQuery(sp: URLSearchParams): SearchQuery & { page: number } {
  const page = Number(sp.get('page'));
  return {
    q: sp.get('q')?.trim() || undefined,
    category: oneOf(CATEGORY_IDS, sp.get('category')),
    level: oneOf(LEVEL_IDS, sp.get('level')),
    format: oneOf(['online', 'in_person'] as const, sp.get('format')),
    city: sp.get('city')?.trim() || undefined,
    free: sp.get('free') === 'true' ? 'true' : undefined,
    minPrice: cents(sp.get('minPrice')),
    maxPrice: cents(sp.get('maxPrice')),
    startsAfter: /^\d{4}-\d{2}-\d{2}$/.test(sp.get('startsAfter') ?? '') ? sp.get('startsAfter')! : undefined,
    hasSeats: sp.get('hasSeats') === 'true' ? 'true' : undefined,
    age: ageOf(sp.get('age')),
    sort: oneOf(SEARCH_SORTS, sp.get('sort')) ?? 'relevance',
    page: Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1,
    pageSize: PAGE_SIZE,
  };
}

const dollars = (c: number | undefined) => (c === undefined ? '' : String(c / 100));
const toCents = (v: string) => {
  const n = Number(v.replace(',', '.'));
  return v.trim() === '' || !Number.isFinite(n) || n < 0 ? undefined : Math.round(n * 100);
};

const selectClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500';
const inputClass = selectClass + ' placeholder:text-slate-500';

function Labelled({ label, children, htmlFor }: { label: string; children: ReactNode; htmlFor: string }) {
  return (
    <div>
      <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A text filter committed to the URL on blur or Enter (not on every keystroke). */
function CommitInput({
  id,
  value,
  onCommit,
  ...props
}: { id: string; value: string; onCommit: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const [draft, setDraft] = useState(value);
  // A new value from the URL (back/forward, "Clear filters") replaces the draft: adjusted while rendering.
  const [prevValue, setPrevValue] = useState(value);
  if (value !== prevValue) {
    setPrevValue(value);
    setDraft(value);
  }
  const commit = () => draft !== value && onCommit(draft);
  return (
    <input
      id={id}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
      className={inputClass}
      {...props}
    />
  );
}

function Filters({
  query,
  set,
  clear,
  activeCount,
}: {
  query: ReturnType<typeof readQuery>;
  set: (changes: Record<string, string | undefined>) => void;
  clear: () => void;
  activeCount: number;
}) {
  const id = useId();
  return (
    <form aria-label="Filters" className="space-y-5" onSubmit={(e) => e.preventDefault()}>
      <Labelled label="Category" htmlFor={`${id}-category`}>
        <select
          id={`${id}-category`}
          className={selectClass}
          value={query.category ?? ''}
          onChange={(e) => set({ category: e.target.value || undefined })}
        >
          <option value="">All categories</option>
          {CATEGORIES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </Labelled>

      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Price</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300 accent-brand-700"
            checked={query.free === 'true'}
            onChange={(e) => set({ free: e.target.checked ? 'true' : undefined, minPrice: undefined, maxPrice: undefined })}
          />
          Free courses only
        </label>
        {query.free !== 'true' && (
          <div className="mt-2 grid grid-cols-2 gap-2">
            <div>
              <label htmlFor={`${id}-min`} className="mb-1 block text-xs text-slate-600">
                Min price
              </label>
              <CommitInput
                id={`${id}-min`}
                inputMode="decimal"
                placeholder="0"
                value={dollars(query.minPrice as number | undefined)}
                onCommit={(v) => set({ minPrice: toCents(v)?.toString() })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-max`} className="mb-1 block text-xs text-slate-600">
                Max price
              </label>
              <CommitInput
                id={`${id}-max`}
                inputMode="decimal"
                placeholder="Any"
                value={dollars(query.maxPrice as number | undefined)}
                onCommit={(v) => set({ maxPrice: toCents(v)?.toString() })}
              />
            </div>
          </div>
        )}
      </fieldset>

      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Where</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1.5">
          {(
            [
              ['', 'Anywhere'],
              ['online', 'Online'],
              ['in_person', 'In person'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${id}-format`}
                className="h-4 w-4 accent-brand-700"
                checked={(query.format ?? '') === value}
                onChange={() => set({ format: value || undefined, ...(value === 'online' ? { city: undefined } : {}) })}
              />
              {label}
            </label>
          ))}
        </div>
        {query.format !== 'online' && (
          <div className="mt-2">
            <label htmlFor={`${id}-city`} className="mb-1 block text-xs text-slate-600">
              City
            </label>
            <CommitInput
              id={`${id}-city`}
              placeholder="e.g. London"
              autoComplete="address-level2"
              value={query.city ?? ''}
              onCommit={(v) => set({ city: v.trim() || undefined })}
            />
          </div>
        )}
      </fieldset>

      <Labelled label="Starts after" htmlFor={`${id}-after`}>
        <input
          id={`${id}-after`}
          type="date"
          className={inputClass}
          value={query.startsAfter ?? ''}
          onChange={(e) => set({ startsAfter: e.target.value || undefined })}
        />
      </Labelled>

      <Labelled label="Level" htmlFor={`${id}-level`}>
        <select
          id={`${id}-level`}
          className={selectClass}
          value={query.level ?? ''}
          onChange={(e) => set({ level: e.target.value || undefined })}
        >
          <option value="">Any level</option>
          {LEVELS.map((l) => (
            <option key={l.id} value={l.id}>
              {l.id === 'all' ? 'Suitable for all levels' : l.label}
            </option>
          ))}
        </select>
      </Labelled>

      <Labelled label="Learner’s age" htmlFor={`${id}-age`}>
        <select
          id={`${id}-age`}
          className={selectClass}
          value={String((query.age as number | undefined) ?? '')}
          onChange={(e) => set({ age: e.target.value || undefined })}
        >
          <option value="">Any age</option>
          {AGES.map((age) => (
            <option key={age} value={age}>
              {age} years old
            </option>
          ))}
        </select>
      </Labelled>

      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 accent-brand-700"
          checked={query.hasSeats === 'true'}
          onChange={(e) => set({ hasSeats: e.target.checked ? 'true' : undefined })}
        />
        Has seats left
      </label>

      {activeCount > 0 && (
        <Button type="button" variant="secondary" className="w-full" onClick={clear}>
          <X className="h-4 w-4" aria-hidden="true" /> Clear filters ({activeCount})
        </Button>
      )}
    </form>
  );
}

function Pagination({ page, pages, href }: { page: number; pages: number; href: (p: number) => string }) {
  if (pages <= 1) return null;
  const link =
    'inline-flex items-center gap-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50';
  const off = 'inline-flex items-center gap-1 rounded-lg border border-slate-200 px-3 py-2 text-sm font-semibold text-slate-400';
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className={link} rel="prev">
          <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
        </span>
      )}
      <p className="text-sm text-slate-700" aria-current="page">
        Page {page} of {pages}
      </p>
      {page < pages ? (
        <Link to={href(page + 1)} className={link} rel="next">
          Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </span>
      )}
    </nav>
  );
}

function EmptyState({ q, activeCount, clear }: { q?: string; activeCount: number; clear: () => void }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
      <SearchX className="mx-auto h-10 w-10 text-slate-400" aria-hidden="true" />
      <h2 className="mt-3 text-lg font-semibold text-slate-900">{q ? `No courses match “${q}”` : 'No courses match these filters'}</h2>
      <ul className="mx-auto mt-2 max-w-md space-y-1 text-sm text-slate-600">
        {q && <li>Check the spelling, or try a shorter or more general word.</li>}
        {activeCount > 0 && <li>Remove a filter or two: fewer filters show more courses.</li>}
        <li>Or browse a category:</li>
      </ul>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        {CATEGORIES.slice(0, 8).map((c) => (
          <Link
            key={c.id}
            to={paths.courseSearch({ category: c.id })}
            className="rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 hover:border-brand-500 hover:text-brand-700"
          >
            {c.label}
          </Link>
        ))}
      </div>
      {activeCount > 0 && (
        <Button type="button" variant="secondary" className="mt-5" onClick={clear}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const query = readQuery(params);
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useQuery(searchCoursesQuery(query));
  const q = query.q ?? '';
  const [words, setWords] = useState(q);
  const [panel, setPanel] = useState(false);
  // New words from the URL (back/forward, a filter link) replace the typed ones: adjusted while rendering.
  const [prevQ, setPrevQ] = useState(q);
  if (q !== prevQ) {
    setPrevQ(q);
    setWords(q);
  }
  // Another page of results starts at the top. Not on mount: a load starts there and a navigation's
  // scroll is ScrollRestoration's; a scroll then would force the first layout of the whole grid
  // inside the effects' task (decision 0033).
  const shownPage = useRef(query.page);
  useEffect(() => {
    if (shownPage.current === query.page) return;
    shownPage.current = query.page;
    window.scrollTo({ top: 0 });
  }, [query.page]);

  const activeCount = FILTER_KEYS.filter((k) => params.get(k)).length;

  /** Applies changes to the URL (a new history entry, so back/forward work), back to page 1. */
  function set(changes: Record<string, string | undefined>, keepPage = false) {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!keepPage) next.delete('page');
    if (next.get('sort') === 'relevance') next.delete('sort');
    setParams(next);
  }
  const clear = () => set(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])));
  const pageHref = (p: number) => {
    const next = new URLSearchParams(params);
    if (p === 1) next.delete('page');
    else next.set('page', String(p));
    return paths.courseSearch(next);
  };

  // Pages reach the first 1,000 results at most (a total may be larger, or an estimate).
  const pages = data ? Math.max(1, Math.ceil(Math.min(data.total, PAGED_RESULTS) / data.pageSize)) : 1;
  const panelId = useId();

  return (
    <div>
      <PageHeader title="Find a course" subtitle="Live classes online and near you, taught by independent educators." />
      <form
        role="search"
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: words.trim() || undefined });
        }}
      >
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-500" aria-hidden="true" />
          <input
            type="search"
            aria-label="Search courses"
            placeholder="Subject, title or educator"
            value={words}
            onChange={(e) => setWords(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white py-3 pl-10 pr-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
        </div>
        <Button type="submit" className="px-5">
          Search
        </Button>
      </form>

      <div className="mt-6 grid gap-6 lg:grid-cols-[16rem_1fr]">
        <div>
          <button
            type="button"
            className="flex w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 shadow-sm lg:hidden"
            aria-expanded={panel}
            aria-controls={panelId}
            onClick={() => setPanel((p) => !p)}
          >
            <span className="flex items-center gap-2">
              <SlidersHorizontal className="h-4 w-4" aria-hidden="true" /> Filters{activeCount > 0 ? ` (${activeCount})` : ''}
            </span>
            <span className="text-brand-700">{panel ? 'Hide' : 'Show'}</span>
          </button>
          <aside
            id={panelId}
            aria-label="Search filters"
            className={`${panel ? 'mt-3 block' : 'hidden'} rounded-2xl border border-slate-200 bg-white p-4 shadow-sm lg:sticky lg:top-24 lg:mt-0 lg:block`}
          >
            <Filters query={query} set={set} clear={clear} activeCount={activeCount} />
            <Button type="button" className="mt-4 w-full lg:hidden" onClick={() => setPanel(false)}>
              {data ? `Show ${resultTotal(data)} ${data.total === 1 ? 'course' : 'courses'}` : 'Show courses'}
            </Button>
          </aside>
        </div>

        <section aria-label="Results" aria-busy={isFetching || undefined}>
          {/* The course cards' titles are h3: their section heading, for screen readers. */}
          <h2 className="sr-only">Results</h2>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700" aria-live="polite">
              {data ? (
                <>
                  <span className="font-semibold text-slate-900">{resultTotal(data)}</span> {data.total === 1 ? 'course' : 'courses'}
                  {query.q && <> for “{query.q}”</>}
                </>
              ) : isPending ? (
                'Searching…'
              ) : (
                ''
              )}
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor={`${panelId}-sort`} className="whitespace-nowrap text-sm font-medium text-slate-800">
                Sort by
              </label>
              <select
                id={`${panelId}-sort`}
                className={`${selectClass} w-auto`}
                value={query.sort}
                onChange={(e) => set({ sort: e.target.value })}
              >
                {SEARCH_SORTS.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
          </div>

          {data?.fuzzy && data.items.length > 0 && (
            <div className="mb-4">
              <Alert title="Showing results for similar words">No course matches “{query.q}” exactly; these are the closest.</Alert>
            </div>
          )}

          {error && !data ? (
            <LoadError title="The search did not work" error={error} onRetry={() => void refetch()} />
          ) : isPending ? (
            <CourseGridSkeleton count={6} className="sm:grid-cols-2 xl:grid-cols-3" />
          ) : data && data.items.length === 0 ? (
            <EmptyState q={query.q} activeCount={activeCount} clear={clear} />
          ) : data ? (
            <div className={isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
              <CourseGrid courses={data.items} label="Courses found" className="grid sm:grid-cols-2 xl:grid-cols-3" />
              <Pagination page={query.page} pages={pages} href={pageHref} />
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
