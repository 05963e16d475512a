import type { ChangeEmailBody, ChangePasswordBody, DeleteAccountBody } from '@shared/account-settings-schemas';
import { api } from '@web/lib/api';

/** Settings: the password, the email address, deleting the account. */
type Ok = { ok: true; message: string };

export const changePassword = (body: ChangePasswordBody) => api<Ok>('/api/accounts/password/change', { method: 'POST', body });
export const changeEmail = (body: ChangeEmailBody) => api<Ok>('/api/accounts/email', { method: 'POST', body });
export const deleteAccount = (body: DeleteAccountBody) => api<Ok>('/api/accounts/delete', { method: 'POST', body });
