import { queryOptions } from '@tanstack/react-query';
import { CATALOGUE_PAGE_SIZE, CATEGORY_IDS, LEVEL_IDS, SEARCH_SORTS } from '@shared/courses';
import type { SearchQuery, SearchResult } from '@shared/courses-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | undefined =>
  v && (list as readonly string[]).includes(v) ? (v as T) : undefined;
const cents = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * The search as the URL states it; unknown or malformed values are ignored. The search
 * page and its route's prefetch (src/web/app/router.tsx) read the same query from the URL.
 */
export function readSearchQuery(sp: URLSearchParams): SearchQuery & { page: number } {
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
    sort: oneOf(SEARCH_SORTS, sp.get('sort')) ?? 'relevance',
    page: Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1,
    pageSize: CATALOGUE_PAGE_SIZE,
  };
}

/** GET /api/courses/search: the catalogue, filtered. */
export function searchCourses(q: SearchQuery) {
  const params = new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return api<SearchResult>(`/api/courses/search?${params}`);
}

/**
 * Fresh for 10 s: the page mounting right after its route prefetched the results does not
 * ask a second time (as the course and dashboard queries, decision 0027).
 */
export const searchCoursesQuery = (q: SearchQuery) =>
  queryOptions({
    queryKey: queryKeys.courseSearch(q),
    queryFn: () => searchCourses(q),
    placeholderData: (prev) => prev,
    staleTime: 10_000,
  });
