import { api } from '@web/lib/api';

/** PUT /api/courses/:id/review: a learner's review of a course. */
export const saveReview = (courseId: string, body: { rating: number; text: string }) =>
  api<{ message: string }>(`/api/courses/${courseId}/review`, { method: 'PUT', body });
