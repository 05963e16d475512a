import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin, genericOAuth, twoFactor } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import * as schema from '../db/schema/index.js';
import type { Mailer } from '../email/mailer.js';
import { passwordResetEmail, verificationEmail } from '../email/templates.js';
import { googleTwoFactor } from './google-two-factor.js';
import { createRateLimits } from './rate-limits.js';
import { createPasswordHasher } from './password-hash.js';

export const SESSION_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
export const COOKIE_PREFIX = 'agora';

/** Splits "Ada King Lovelace" into first "Ada" and last "King Lovelace" (spec section 4). */
export function splitFullName(full: string | null | undefined): { firstName: string; lastName: string } {
  const name = (full ?? '').trim().replace(/\s+/g, ' ');
  const at = name.indexOf(' ');
  return at < 0 ? { firstName: name, lastName: '' } : { firstName: name.slice(0, at), lastName: name.slice(at + 1) };
}

export function sessionCookieName(config: Config) {
  return `${config.production ? '__Secure-' : ''}${COOKIE_PREFIX}.session_token`;
}

/**
 * better-auth, configured for our tables, our emails and our rules. Sign-up and
 * password sign-in go through our own routes (messages of the spec); the library's
 * own HTTP endpoints for those two are disabled so nobody can skip our checks.
 */
export function createAuth(deps: {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /**
   * A user signed in or was created (sign-up, first Google login): payments creates their
   * card customer when missing, in the background (never fails the sign-up).
   */
  onUserSeen?: (userId: string) => void;
}) {
  const { config, db, mailer, log } = deps;
  const trustDeviceMaxAge = 30 * 24 * 60 * 60;
  const plugins = [
    admin(),
    // Authenticator apps (TOTP) and backup codes; reached only through our routes
    // (two-factor-routes.ts), which add our validation, limits and the aal of the session.
    twoFactor({
      issuer: 'Agora',
      // A Google-only account can turn it on without a password (it has none).
      allowPasswordless: true,
      trustDeviceMaxAge,
      backupCodeOptions: { amount: 10, length: 10 },
      accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
    }),
    // ...and the same second step after a Google log-in, which the plugin does not hold back.
    googleTwoFactor({ trustDeviceMaxAge }),
  ] as unknown[];
  if (config.google) {
    plugins.push(
      genericOAuth({
        config: [
          {
            providerId: 'google',
            clientId: config.google.clientId,
            clientSecret: config.google.clientSecret,
            discoveryUrl: config.google.discoveryUrl,
            scopes: ['openid', 'email', 'profile'],
            pkce: true,
            mapProfileToUser: (profile) => {
              const given = typeof profile.given_name === 'string' ? profile.given_name.trim() : '';
              const family = typeof profile.family_name === 'string' ? profile.family_name.trim() : '';
              const names = given ? { firstName: given, lastName: family } : splitFullName(profile.name as string);
              return {
                ...names,
                name: [names.firstName, names.lastName].filter(Boolean).join(' ') || String(profile.email ?? ''),
              };
            },
          },
        ],
      }),
    );
  }

  return betterAuth({
    appName: 'Agora',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.signInSession,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
      },
    }),
    disabledPaths: ['/sign-up/email', '/sign-in/email'],
    // An OAuth callback that fails before its state is read (replayed, forged, expired) has no
    // errorCallbackURL of its own: the person lands on the spec's Google login page, which
    // says 'Google Auth Error' for any ?error, instead of /api/auth/error (issue 23).
    onAPIError: { errorURL: '/google-login' },
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: config.production,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/' },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    session: {
      expiresIn: SESSION_MAX_AGE_SECONDS,
      updateAge: 24 * 60 * 60,
    },
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true, input: true },
        lastName: { type: 'string', required: false, input: true, defaultValue: '' },
        birthdate: { type: 'string', required: false, input: true },
        city: { type: 'string', required: false, input: false },
        stripeCustomerId: { type: 'string', required: false, input: false },
        lastSignInAt: { type: 'date', required: false, input: false },
      },
    },
    account: {
      // A Google login whose email matches an account links to it only when Google says
      // it verified that email (email_verified) and our account is verified too: trusting
      // the provider blindly would hand an account to anyone who puts its address on a
      // Google account without verifying it.
      accountLinking: { enabled: true },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      // better-auth's scrypt and format; its cost lowered on test servers only (PASSWORD_HASH_COST).
      password: createPasswordHasher({ cost: config.passwordHashCost, production: config.production }),
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        const u = user as typeof user & { firstName?: string };
        await mailer.send(passwordResetEmail(user.email, u.firstName ?? '', url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        const u = user as typeof user & { firstName?: string };
        await mailer.send(verificationEmail(user.email, u.firstName ?? '', url));
      },
    },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      // Counted in PostgreSQL with every other limit (rate-limits.ts), so it holds across
      // instances; the library's own memory store counts per process (ADR 0057).
      customStorage: authRateLimitStorage(db),
      customRules: {
        '/send-verification-email': { window: 60, max: 3 },
        '/request-password-reset': { window: 60, max: 5 },
      },
    },
    databaseHooks: {
      user: {
        create: {
          // The first admins come from ADMIN_EMAILS (docs/decisions/0014-admin-console.md).
          before: async (created) => {
            if (config.adminEmails.includes(created.email.toLowerCase())) return { data: { ...created, role: 'admin' } };
          },
          after: async (created) => {
            deps.onUserSeen?.(created.id);
          },
        },
      },
      session: {
        create: {
          after: async (session) => {
            await db.update(schema.user).set({ lastSignInAt: new Date() }).where(eq(schema.user.id, session.userId));
            deps.onUserSeen?.(session.userId);
          },
        },
      },
    },
    plugins: plugins as [],
    telemetry: { enabled: false },
    // The library's messages go to the app's logger (and honour LOG_LEVEL), not to the console.
    logger: {
      level: 'debug',
      log: (level, message, ...args) => log[level]({ args: args.length ? args : undefined }, `[auth] ${message}`),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * better-auth's limiter on the shared store: one atomic hit per request on `auth:<ip|path>`,
 * allowed while the window's count is within the rule's max. A refused request counts too
 * (a fixed window: it ends at the same moment whatever is sent meanwhile).
 */
export function authRateLimitStorage(db: Db) {
  const limits = createRateLimits(db);
  return {
    async consume(key: string, rule: { window: number; max: number }) {
      const hit = await limits.hit(`auth:${key}`, rule.window * 1000);
      if (hit.count <= rule.max) return { allowed: true, retryAfter: null };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(hit.ttlMs / 1000)) };
    },
  };
}
