import { z } from 'zod';
import { str } from './input-schemas.js';

/** Two-factor sign-in and linked accounts: request and response schemas (server and web). */
const code = str()
  .max(40, 'This code is not correct')
  .transform((s) => s.trim());
/** A password that only gets checked against the stored one (strength is checked when set). */
const currentPassword = str()
  .max(128, 'The password is not correct')
  .optional()
  .transform((s) => s ?? '');

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  aal: z.enum(['aal1', 'aal2']),
  recentSecondFactor: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

export const passwordBody = z.object({ password: currentPassword });
export const codeBody = z.object({ code });
export const disableTwoFactorBody = z.object({ password: currentPassword, code });
export const twoFactorSignInBody = z.object({ code, trustDevice: z.boolean().optional().default(false) });
export type TwoFactorSignInBody = z.input<typeof twoFactorSignInBody>;

export const twoFactorSetup = z.object({ totpUri: z.string(), key: z.string(), qrCode: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;
export const backupCodes = z.object({ backupCodes: z.array(z.string()) });

export const linkedProvider = z.enum(['password', 'google']);
export type LinkedProvider = z.infer<typeof linkedProvider>;
export const linkedAccounts = z.object({
  accounts: z.array(z.object({ provider: linkedProvider, linkedAt: z.string() })),
  googleAvailable: z.boolean(),
});
export type LinkedAccounts = z.infer<typeof linkedAccounts>;
export const setPasswordBody = z.object({
  password: str()
    .max(10_000, 'This is too long')
    .transform((s) => s.trim()),
});
