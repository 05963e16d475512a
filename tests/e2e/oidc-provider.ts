import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A local OpenID Connect provider standing in for Google (oauth2-mock-server). Its
 * authorize endpoint signs the visitor in at once; who they are is chosen by the test
 * through a cookie on the provider's host (see googleProfileCookie in support.ts), so
 * parallel tests each get their own Google user without shared state.
 */
export const PROFILE_COOKIE = 'agora_e2e_google_profile';

export interface GoogleProfile {
  email: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
  /** The user refuses consent: the provider answers with error=access_denied. */
  deny?: boolean;
}

const DEFAULT_PROFILE: GoogleProfile = { email: 'google-user@example.com', name: 'Google User' };

export function encodeProfile(profile: GoogleProfile): string {
  return Buffer.from(JSON.stringify(profile)).toString('base64url');
}

function profileFromCookie(req: IncomingMessage): GoogleProfile {
  const cookies = req.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== PROFILE_COOKIE) continue;
    try {
      const parsed = JSON.parse(Buffer.from(rest.join('='), 'base64url').toString('utf8')) as GoogleProfile;
      if (typeof parsed.email === 'string') return parsed;
    } catch {
      /* fall through to the default user */
    }
  }
  return DEFAULT_PROFILE;
}

/** The claims Google would put in the ID token and the userinfo answer. */
function claims(profile: GoogleProfile) {
  return {
    sub: `google-${createHash('sha256').update(profile.email.toLowerCase()).digest('hex').slice(0, 20)}`,
    email: profile.email,
    email_verified: profile.email_verified ?? true,
    ...(profile.name ? { name: profile.name } : {}),
    ...(profile.given_name ? { given_name: profile.given_name } : {}),
    ...(profile.family_name ? { family_name: profile.family_name } : {}),
  };
}

export async function startOidcProvider(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');

  /** Authorization code -> the profile chosen when it was issued. */
  const byCode = new Map<string, GoogleProfile>();

  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: IncomingMessage) => {
    const code = redirect.url.searchParams.get('code');
    const profile = profileFromCookie(req);
    if (profile.deny) {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
      return;
    }
    if (code) byCode.set(code, profile);
  });

  server.service.on(
    'beforeTokenSigning',
    (token: { payload: Record<string, unknown> }, req: IncomingMessage & { body?: Record<string, string> }) => {
      const code = req.body?.code;
      const profile = code ? byCode.get(code) : undefined;
      if (profile) Object.assign(token.payload, claims(profile));
    },
  );

  // The userinfo answer repeats the claims of the access token it is called with.
  server.service.on('beforeUserinfo', (response: { body: unknown; statusCode: number }, req: IncomingMessage) => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    try {
      const payload = JSON.parse(Buffer.from(bearer!.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
      const { sub, email, email_verified, name, given_name, family_name } = payload;
      response.body = { sub, email, email_verified, name, given_name, family_name };
    } catch {
      response.statusCode = 401;
      response.body = { error: 'invalid_token' };
    }
  });

  await server.start(port, '127.0.0.1');
  // Named by IP so its cookies (the chosen profile) stay apart from the app's on localhost.
  server.issuer.url = `http://127.0.0.1:${port}`;
  return {
    url: server.issuer.url!,
    stop: async () => {
      await server.stop();
    },
  };
}
