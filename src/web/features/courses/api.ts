import { queryOptions } from '@tanstack/react-query';
import type { ClassTimeInput, CourseInput, CourseView, DropResult, EnrolmentResult, SearchQuery, SearchResult, SessionInput } from '../../../shared/courses-schemas';
import { api } from '../../lib/api';

/** Every call of the courses API, with the query options route loaders prefetch. */
export const courseQuery = (id: string) => queryOptions({ queryKey: ['course', id], queryFn: () => api<CourseView>(`/api/courses/${id}`) });

export const searchCoursesQuery = (q: SearchQuery) =>
  queryOptions({
    queryKey: ['courses', 'search', q],
    queryFn: () => {
      const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
      return api<SearchResult>(`/api/courses/search?${params}`);
    },
    placeholderData: (prev) => prev,
  });

export const createCourse = (body: CourseInput) => api<{ id: string }>('/api/courses', { method: 'POST', body });
export const updateCourse = (id: string, body: CourseInput) => api<{ message: string }>(`/api/courses/${id}`, { method: 'PUT', body });
export const publishCourse = (id: string) => api<{ message: string }>(`/api/courses/${id}/publish`, { method: 'POST' });
export const archiveCourse = (id: string) => api<{ message: string }>(`/api/courses/${id}/archive`, { method: 'POST' });
export const uploadCover = (id: string, file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api<{ coverImage: string }>(`/api/courses/${id}/cover`, { method: 'POST', body: form });
};

export const createSession = (courseId: string, body: SessionInput) => api<{ id: string }>(`/api/courses/${courseId}/sessions`, { method: 'POST', body });
export const updateSession = (courseId: string, sessionId: string, body: { capacity?: number; status?: 'scheduled' | 'cancelled' }) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}`, { method: 'PATCH', body });
export const addClassTimes = (courseId: string, sessionId: string, body: ClassTimeInput) =>
  api<{ ids: string[] }>(`/api/courses/${courseId}/sessions/${sessionId}/class-times`, { method: 'POST', body });
export const deleteClassTime = (courseId: string, sessionId: string, classTimeId: string) =>
  api<{ message: string }>(`/api/courses/${courseId}/sessions/${sessionId}/class-times/${classTimeId}`, { method: 'DELETE' });

export const enrol = (courseId: string, sessionId: string) => api<EnrolmentResult>(`/api/courses/${courseId}/sessions/${sessionId}/enrol`, { method: 'POST' });
export type { DropRefund } from '../../../shared/courses-schemas';
export const drop = (courseId: string, sessionId: string) =>
  api<DropResult>(`/api/courses/${courseId}/sessions/${sessionId}/drop`, { method: 'POST' });
export const saveReview = (courseId: string, body: { rating: number; text: string }) => api<{ message: string }>(`/api/courses/${courseId}/review`, { method: 'PUT', body });

export interface RosterRow { enrolmentId: string; sessionId: string; sessionStartsOn: string; learnerName: string; learnerEmail: string; status: string; enrolledAt: string }
export const rosterQuery = (courseId: string) => queryOptions({ queryKey: ['course', courseId, 'roster'], queryFn: () => api<{ rows: RosterRow[] }>(`/api/courses/${courseId}/roster`) });

export interface DashboardClassTime { id: string; startsAt: string; endsAt: string; location: string | null; meetingUrl: string | null; courseId: string; courseTitle: string; timeZone: string }
export interface DashboardEnrolment { enrolmentId: string; status: string; sessionId: string; courseId: string; courseTitle: string; startsOn: string; endsOn: string; coverImage: string | null }
export interface DashboardTeaching { id: string; title: string; status: string; nextStartOn: string | null; seatsLeft: number; ratingAvg: number; ratingCount: number; active: number; waitlisted: number }
export interface Dashboard { thisWeek: DashboardClassTime[]; later: DashboardClassTime[]; courses: DashboardEnrolment[]; waitlists: DashboardEnrolment[]; teaching: DashboardTeaching[] | null }
export const dashboardQuery = queryOptions({ queryKey: ['dashboard'], queryFn: () => api<Dashboard>('/api/dashboard') });
export const calendarFeedUrl = (rotate = false) => api<{ url: string }>('/api/calendar/feed', { method: 'POST', body: { rotate } });
