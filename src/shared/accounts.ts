export type { SignUpBody, SignInBody, UpdateProfileBody, CurrentUser, SessionInfo } from './accounts-schemas.js';

/** Messages kept to the letter of the spec's error catalogue (section 8). */
export const MESSAGES = {
  emptyFields: 'Empty Fields',
  emailInUse: 'Email already in use',
  userSaveError: 'User table save error',
  incorrectCredentials: 'Incorrect Email or Password',
  signInError: 'Error signing in',
  locationError: 'Error updating location',
  emailNotFound: 'Email not found',
  userUpdated: 'User update successful',
  googleAuthError: 'Google Auth Error',
  pageNotFound: 'Page Not Found',
  internalError: 'Internal Server Error',
  emailNotVerified: 'Please verify your email before logging in. We sent you a link when you signed up.',
} as const;

export const DEFAULT_AVATAR = '/default-avatar.svg';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Common passwords refused outright (a short list; length and content rules catch the rest). */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'letmein1',
  'welcome1',
  'admin123',
  'abc12345',
  'football',
  'baseball',
  'sunshine',
  'princess',
  'superman',
  'trustno1',
  'passw0rd',
  '11111111',
  '00000000',
  'monkey123',
  'dragon123',
  'master123',
  'starwars',
  'whatever',
  'changeme',
  'agora123',
  'qwerty12',
]);

/** Reasons a password is too weak; empty when it is acceptable. */
export function passwordWeaknesses(password: string, email = ''): string[] {
  const reasons: string[] = [];
  if (password.length < 8) reasons.push('Use at least 8 characters');
  if (password.length > 128) reasons.push('Use at most 128 characters');
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  const lower = password.toLowerCase();
  if (email && (lower.includes(email.toLowerCase()) || (local.length >= 3 && lower.includes(local)))) {
    reasons.push('Do not include your email address');
  }
  if (COMMON_PASSWORDS.has(lower)) reasons.push('This password is too common');
  if (/^(.)\1+$/.test(password)) reasons.push('Do not repeat a single character');
  if (password.length >= 8 && (!/[a-zA-Z]/.test(password) || !/[^a-zA-Z]/.test(password))) {
    reasons.push('Mix letters with numbers or symbols');
  }
  return reasons;
}

/** A birthdate in YYYY-MM-DD, in the past, for someone at most 120 years old. */
export function birthdateProblem(value: string, today = new Date()): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'Enter the birthdate as YYYY-MM-DD';
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return 'This date does not exist';
  if (d > today) return 'The birthdate cannot be in the future';
  if (today.getUTCFullYear() - d.getUTCFullYear() > 120) return 'Check the year of birth';
  return null;
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
