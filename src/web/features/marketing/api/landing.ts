import { queryOptions } from '@tanstack/react-query';
import type { LandingResult } from '@shared/landing-schemas';
import { api } from '@web/lib/api';
import { takeBootstrapAnswer } from '@web/lib/bootstrap';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/landing: the public figures and featured courses and clubs. */
export const getLanding = () => api<LandingResult>('/api/landing');
/** The page's embedded answer is the initial data: the first render draws the figures and cards (decision 0033). */
export const landingQuery = queryOptions({
  queryKey: queryKeys.landing,
  queryFn: getLanding,
  initialData: () => takeBootstrapAnswer<LandingResult>('/api/landing'),
  staleTime: 60_000,
});
