import { queryOptions } from '@tanstack/react-query';
import type {
  LearnerInviteAccept,
  LearnerInviteBody,
  LearnerInviteView,
  LearnerProfileBody,
  LearnerProfileChanges,
  LearnerProfileList,
  LearnerProfileView,
} from '@shared/learner-profile-schemas';
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

/** Family accounts: inviting a learner to an account of their own, and that invitation's sign-up. */
export const inviteLearner = (id: string, body: LearnerInviteBody) =>
  api<{ message: string }>(`/api/me/learners/${id}/invite`, { method: 'POST', body });
export const cancelLearnerInvite = (id: string) => api<{ message: string }>(`/api/me/learners/${id}/invite`, { method: 'DELETE' });
export const learnerInviteQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.learnerInvite(token),
    queryFn: () => api<LearnerInviteView>(`/api/accounts/learner-invite?token=${encodeURIComponent(token)}`),
    retry: false,
  });
export const acceptLearnerInvite = (body: LearnerInviteAccept) =>
  api<{ email: string; message: string }>('/api/accounts/learner-invite', { method: 'POST', body });
