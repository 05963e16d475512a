import { queryOptions } from '@tanstack/react-query';
import type { SearchQuery, SearchResult } from '@shared/courses-schemas';
import { api } from '@web/lib/api';
import { takeBootstrapAnswer } from '@web/lib/bootstrap';
import { queryKeys } from '@web/lib/query-keys';

function searchPath(q: SearchQuery) {
  const params = new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return `/api/courses/search?${params}`;
}

/** GET /api/courses/search: the catalogue, filtered. */
export const searchCourses = (q: SearchQuery) => api<SearchResult>(searchPath(q));

/**
 * The page's embedded answer (decision 0027) is the query's initial data: the first render
 * (sliced, decision 0033) draws the results, with no second, unsliced render when a fetch
 * resolves. Fresh for 10 s, as the course page's and the dashboard's.
 */
export const searchCoursesQuery = (q: SearchQuery) =>
  queryOptions({
    queryKey: queryKeys.courseSearch(q),
    queryFn: () => searchCourses(q),
    initialData: () => takeBootstrapAnswer<SearchResult>(searchPath(q)),
    placeholderData: (prev) => prev,
    staleTime: 10_000,
  });
