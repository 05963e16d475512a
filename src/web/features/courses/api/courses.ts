import { queryOptions } from '@tanstack/react-query';
import type { CourseInput, CourseView } from '@shared/courses-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** A course and its editing: GET/PUT /api/courses/:id, create, publish, archive, cover. */
export const getCourse = (id: string) => api<CourseView>(`/api/courses/${id}`);
/** Fresh for 10 s: the page mounting right after its route prefetched the course does not ask again (writes invalidate it). */
export const courseQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.course(id), queryFn: () => getCourse(id), staleTime: 10_000 });

export const createCourse = (body: CourseInput) => api<{ id: string }>('/api/courses', { method: 'POST', body });
export const updateCourse = (id: string, body: CourseInput) => api<{ message: string }>(`/api/courses/${id}`, { method: 'PUT', body });
export const publishCourse = (id: string) => api<{ message: string }>(`/api/courses/${id}/publish`, { method: 'POST' });
export const archiveCourse = (id: string) => api<{ message: string }>(`/api/courses/${id}/archive`, { method: 'POST' });
/** Where the cover upload posts (the editor uploads with progress, outside fetch). */
export const coverUploadUrl = (id: string) => `/api/courses/${id}/cover`;
