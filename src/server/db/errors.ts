/** PostgreSQL error codes (SQLSTATE) the app turns into answers. */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  exclusionViolation: '23P01',
  /** A statement ran past statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeout: '57014',
} as const;

/** The SQLSTATE of a database error, looked for through the driver's wrapping causes. */
export function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
