import type { CurrentUser, UpdateProfileBody } from '@shared/accounts';
import { api } from '@web/lib/api';

/** The user's own profile and picture. */
export const updateProfile = (userId: string, body: UpdateProfileBody) =>
  api<CurrentUser>(`/api/users/${userId}`, { method: 'PATCH', body });
export const uploadAvatar = (userId: string, file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api<CurrentUser>(`/api/users/${userId}/avatar`, { method: 'POST', body: form });
};
