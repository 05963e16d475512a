import { queryOptions } from '@tanstack/react-query';
import type { EducatorInput, EducatorProfile } from '@shared/educators-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

export const educatorQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.educator(id), queryFn: () => api<EducatorProfile>(`/api/educators/${id}`) });
export const becomeEducator = (body: EducatorInput) => api<{ message: string }>('/api/educators', { method: 'POST', body });
export const updateEducator = (id: string, body: EducatorInput) =>
  api<{ message: string }>(`/api/educators/${id}`, { method: 'PUT', body });
/** Where a photo upload posts (uploaded with progress, outside fetch). */
export const photoUploadUrl = (id: string) => `/api/educators/${id}/photo`;
