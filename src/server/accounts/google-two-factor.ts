import { createHmac } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import { deleteSessionCookie, expireCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';

/** Where the browser finishes a Google log-in that still needs its second factor. */
export const GOOGLE_TWO_FACTOR_REDIRECT = '/login?step=two-factor';

// The names and lifetimes the twoFactor plugin uses (its constant.mjs and defaults), so
// its verify endpoints accept what this hook leaves behind.
const TWO_FACTOR_COOKIE = 'two_factor';
const TRUST_DEVICE_COOKIE = 'trust_device';
const TWO_FACTOR_COOKIE_MAX_AGE = 600;

/**
 * The twoFactor plugin holds back only password sign-ins (its after-hook matches
 * /sign-in/email|username|phone-number): a Google log-in of a user with two-factor on would
 * get a full session. This hook does on the OAuth callback what the plugin does there
 * (docs/decisions/0013): unless the device is trusted, the new session and its cookie go,
 * the signed two_factor cookie points at a fresh verification value, and the browser is sent
 * to the code step of the login page instead of the callback URL.
 */
export function googleTwoFactor(options: { trustDeviceMaxAge: number }): BetterAuthPlugin {
  return {
    id: 'agora-google-two-factor',
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/callback/:id' || context.path === '/oauth2/callback/:providerId',
          handler: createAuthMiddleware(async (ctx) => {
            const data = ctx.context.newSession;
            const user = data?.user as { id: string; twoFactorEnabled?: boolean | null } | undefined;
            if (!data || !user?.twoFactorEnabled) return;

            const trustCookie = ctx.context.createAuthCookie(TRUST_DEVICE_COOKIE, { maxAge: options.trustDeviceMaxAge });
            const trusted = await ctx.getSignedCookie(trustCookie.name, ctx.context.secret);
            if (trusted) {
              const [token, identifier] = trusted.split('!');
              const expected =
                identifier && createHmac('sha256', ctx.context.secret).update(`${user.id}!${identifier}`).digest('base64url');
              const record = identifier ? await ctx.context.internalAdapter.findVerificationValue(identifier) : null;
              // A trusted device skips the code, as for a password sign-in.
              if (token === expected && record && record.value === user.id && record.expiresAt > new Date()) return;
              expireCookie(ctx, trustCookie);
            }

            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(data.session.token);
            ctx.context.setNewSession(null);
            const twoFactorCookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, { maxAge: TWO_FACTOR_COOKIE_MAX_AGE });
            const identifier = `2fa-${generateRandomString(20)}`;
            const expiresAt = new Date(Date.now() + TWO_FACTOR_COOKIE_MAX_AGE * 1000);
            await ctx.context.internalAdapter.createVerificationValue({ value: user.id, identifier, expiresAt });
            await ctx.context.internalAdapter.createVerificationValue({ value: '0', identifier: `2fa-attempts-${identifier}`, expiresAt });
            await ctx.setSignedCookie(twoFactorCookie.name, identifier, ctx.context.secret, twoFactorCookie.attributes);
            // The callback answered a redirect to its callback URL; the code step comes first.
            ctx.setHeader('location', GOOGLE_TWO_FACTOR_REDIRECT);
          }),
        },
      ],
    },
  };
}
