import { queryOptions } from '@tanstack/react-query';
import type { SearchQuery, SearchResult } from '@shared/courses-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/courses/search: the catalogue, filtered. */
export function searchCourses(q: SearchQuery) {
  const params = new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return api<SearchResult>(`/api/courses/search?${params}`);
}

export const searchCoursesQuery = (q: SearchQuery) =>
  queryOptions({ queryKey: queryKeys.courseSearch(q), queryFn: () => searchCourses(q), placeholderData: (prev) => prev });
