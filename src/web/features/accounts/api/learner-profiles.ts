import { queryOptions } from '@tanstack/react-query';
import type { LearnerProfileBody, LearnerProfileChanges, LearnerProfileList, LearnerProfileView } from '@shared/learner-profile-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The account's learners (/api/me/learners): children enrolled without an account of their own. */
export const learnerProfilesQuery = queryOptions({
  queryKey: queryKeys.learnerProfiles,
  queryFn: () => api<LearnerProfileList>('/api/me/learners'),
});

type Answer = { learner: LearnerProfileView; message: string };

export const addLearnerProfile = (body: LearnerProfileBody) => api<Answer>('/api/me/learners', { method: 'POST', body });
export const updateLearnerProfile = (id: string, body: LearnerProfileChanges) =>
  api<Answer>(`/api/me/learners/${id}`, { method: 'PATCH', body });
export const removeLearnerProfile = (id: string) => api<{ message: string }>(`/api/me/learners/${id}`, { method: 'DELETE' });
