import { queryOptions } from '@tanstack/react-query';
import type { EducatorInput, EducatorProfile } from '../../../shared/educators-schemas';
import { api } from '../../lib/api';

export const educatorQuery = (id: string) => queryOptions({ queryKey: ['educator', id], queryFn: () => api<EducatorProfile>(`/api/educators/${id}`) });
export const becomeEducator = (body: EducatorInput) => api<{ message: string }>('/api/educators', { method: 'POST', body });
export const updateEducator = (id: string, body: EducatorInput) => api<{ message: string }>(`/api/educators/${id}`, { method: 'PUT', body });
export const uploadEducatorPhoto = (id: string, file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api<{ profileImage: string }>(`/api/educators/${id}/photo`, { method: 'POST', body: form });
};
