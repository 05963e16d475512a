import { z } from 'zod';
import { str } from './input-schemas.js';

/** Settings: changing the password and the email, deleting the account (server and web). */
const currentPassword = str()
  .max(128, 'The password is not correct')
  .optional()
  .transform((s) => s ?? '');

export const changePasswordBody = z.object({
  currentPassword,
  newPassword: str().max(128, 'A password is at most 128 characters'),
});
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

export const changeEmailBody = z.object({
  newEmail: z.email('Enter a valid email address').max(254, 'This email address is too long'),
  password: currentPassword,
});
export type ChangeEmailBody = z.input<typeof changeEmailBody>;

export const deleteAccountBody = z.object({
  password: currentPassword,
  /** The account's email, typed again. */
  confirmEmail: str()
    .max(254, 'Type the email of your account')
    .transform((s) => s.trim()),
});
export type DeleteAccountBody = z.input<typeof deleteAccountBody>;

export const settingsMessage = z.object({ ok: z.literal(true), message: z.string() });
