import { queryOptions } from '@tanstack/react-query';
import type { LandingResult } from '@shared/landing-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/landing: the public figures and featured courses and clubs. */
export const getLanding = () => api<LandingResult>('/api/landing');
export const landingQuery = queryOptions({ queryKey: queryKeys.landing, queryFn: getLanding, staleTime: 60_000 });
