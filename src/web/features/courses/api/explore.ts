import { queryOptions } from '@tanstack/react-query';
import type { ExploreResult } from '@shared/courses-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/explore: the shelves of the Explore page. */
export const getExplore = () => api<ExploreResult>('/api/explore');
export const exploreQuery = queryOptions({ queryKey: queryKeys.explore, queryFn: getExplore, staleTime: 60_000 });
