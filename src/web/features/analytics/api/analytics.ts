import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsResult } from '@shared/analytics-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

export interface AnalyticsParams {
  from: string;
  to: string;
  course?: string;
}

const query = (p: AnalyticsParams) => new URLSearchParams(Object.entries(p).filter(([, v]) => v) as [string, string][]).toString();

export const getAnalytics = (educatorId: string, p: AnalyticsParams) =>
  api<AnalyticsResult>(`/api/educator/${educatorId}/analytics?${query(p)}`);

export const analyticsQuery = (educatorId: string, p: AnalyticsParams) =>
  queryOptions({
    queryKey: queryKeys.analytics(educatorId, p),
    queryFn: () => getAnalytics(educatorId, p),
    placeholderData: (previous) => previous,
    retry: false,
  });

/** The CSV downloads (a plain link: the browser saves the file). */
export const analyticsCsvUrl = (educatorId: string, kind: 'courses' | 'sales', p: AnalyticsParams) =>
  `/api/educator/${educatorId}/analytics/${kind}.csv?${query(p)}`;
