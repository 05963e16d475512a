import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** What the server says about itself (GET /api/version): its build and the log-ins it offers. */
export interface AppInfo {
  buildId: string;
  /** "Continue with Google" works: GOOGLE_CLIENT_ID and its secret are set. */
  googleLogin: boolean;
}

export const appInfoQuery = queryOptions({
  queryKey: queryKeys.appInfo,
  queryFn: () => api<AppInfo>('/api/version', { allowUnauthorized: true }),
  staleTime: 5 * 60_000,
});

/** Whether Google log-in is offered; false until the server said so. */
export function useGoogleLogin(): boolean {
  return useQuery(appInfoQuery).data?.googleLogin === true;
}
