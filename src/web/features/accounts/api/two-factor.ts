import { queryOptions } from '@tanstack/react-query';
import type { LinkedAccounts, LinkedProvider, TwoFactorSetup, TwoFactorStatus } from '@shared/accounts-security-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Two-factor sign-in settings, linked accounts and signing out everywhere. */
type Ok = { message: string };

export const twoFactorQuery = queryOptions({
  queryKey: queryKeys.twoFactor,
  queryFn: () => api<TwoFactorStatus>('/api/accounts/two-factor'),
});
export const startTwoFactorSetup = (password: string) =>
  api<TwoFactorSetup>('/api/accounts/two-factor/setup', { method: 'POST', body: { password } });
export const confirmTwoFactorSetup = (code: string) =>
  api<{ backupCodes: string[] }>('/api/accounts/two-factor/confirm', { method: 'POST', body: { code } });
export const regenerateBackupCodes = (password: string) =>
  api<{ backupCodes: string[] }>('/api/accounts/two-factor/backup-codes', { method: 'POST', body: { password } });
export const confirmWithCode = (code: string) => api<Ok>('/api/accounts/two-factor/verify', { method: 'POST', body: { code } });
export const disableTwoFactor = (password: string, code: string) =>
  api<Ok>('/api/accounts/two-factor/disable', { method: 'POST', body: { password, code } });

export const linkedAccountsQuery = queryOptions({
  queryKey: queryKeys.linkedAccounts,
  queryFn: () => api<LinkedAccounts>('/api/accounts/linked-accounts'),
});
export const linkGoogle = () => api<{ url: string }>('/api/accounts/linked-accounts/google', { method: 'POST' });
export const unlinkAccount = (provider: LinkedProvider) =>
  api<Ok>('/api/accounts/linked-accounts/unlink', { method: 'POST', body: { provider } });
export const setPassword = (password: string) => api<Ok>('/api/accounts/password', { method: 'POST', body: { password } });
export const signOutEverywhere = () => api<Ok>('/api/accounts/sessions/revoke-all', { method: 'POST' });

/** The backup codes as a text file to keep. */
export function downloadBackupCodes(codes: string[]) {
  const text = `Agora backup codes\nEach code works once. Keep them somewhere safe.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'agora-backup-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}
