import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { birthdateProblem, EMAIL_RE, MESSAGES, passwordWeaknesses, type SignUpBody } from '../../shared/accounts.js';
import { user } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { toHeaders } from '../http/headers.js';

const LABELS: Record<keyof SignUpBody, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  password: 'Password',
  birthdate: 'Birthdate',
};

/**
 * Creates an unverified account and emails the verification link. The user and their
 * password credential are written by the auth library; we check everything first so
 * each failure has the spec's message.
 */
export async function signUp(app: FastifyInstance, request: FastifyRequest, input: Required<SignUpBody>) {
  const missing = (Object.keys(LABELS) as (keyof SignUpBody)[]).filter((k) => !input[k]);
  if (missing.length) {
    throw new AppError(400, 'empty_fields', MESSAGES.emptyFields, {
      fields: Object.fromEntries(missing.map((k) => [k, `${LABELS[k]} is required`])),
    });
  }
  const email = input.email.toLowerCase();
  const fields: Record<string, string> = {};
  if (!EMAIL_RE.test(email) || email.length > 254) fields.email = 'Enter a valid email address';
  if (input.firstName.length > 80) fields.firstName = 'First name is too long';
  if (input.lastName.length > 80) fields.lastName = 'Last name is too long';
  const dateProblem = birthdateProblem(input.birthdate);
  if (dateProblem) fields.birthdate = dateProblem;
  if (Object.keys(fields).length) throw AppError.badRequest(Object.values(fields)[0], fields);

  const reasons = passwordWeaknesses(input.password, email);
  if (reasons.length) {
    throw new AppError(400, 'weak_password', 'This password is too weak', { reasons, fields: { password: reasons.join('. ') } });
  }

  const emailInUse = () => new AppError(409, 'email_in_use', MESSAGES.emailInUse, { fields: { email: MESSAGES.emailInUse } });
  if (await emailTaken(app, email)) throw emailInUse();

  try {
    await app.auth.api.signUpEmail({
      body: {
        email,
        password: input.password,
        name: `${input.firstName} ${input.lastName}`,
        firstName: input.firstName,
        lastName: input.lastName,
        birthdate: input.birthdate,
        callbackURL: '/email-verified',
      },
      headers: toHeaders(request),
    });
  } catch (err) {
    // The library reports every failure to save the user as the same 422 (the database
    // error is not kept), so a duplicate is told apart by looking again: a concurrent
    // sign-up with the same email got there first. Anything else is a save error.
    if (isUniqueViolation(err) || (await emailTaken(app, email).catch(() => false))) throw emailInUse();
    request.log.error({ err }, 'sign-up failed');
    throw new AppError(500, 'user_save_error', MESSAGES.userSaveError);
  }
  return { email };
}

async function emailTaken(app: FastifyInstance, email: string): Promise<boolean> {
  const rows = await app.database.db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  return rows.length > 0;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: string }).code === '23505') return true;
  }
  return false;
}
