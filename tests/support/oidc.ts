import { OAuth2Server } from 'oauth2-mock-server';

export interface GoogleProfile {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

/**
 * A local OpenID Connect provider standing in for Google. `profile` decides who the
 * next login is (claims of the ID token and the userinfo answer).
 */
export async function startOidcProvider() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let profile: GoogleProfile | null = null;
  let authorizeError: string | null = null;

  server.service.on('beforeTokenSigning', (token) => {
    if (profile) Object.assign(token.payload, profile);
  });
  server.service.on('beforeUserinfo', (response) => {
    if (profile) response.body = { ...profile };
  });
  server.service.on('beforeAuthorizeRedirect', (redirect) => {
    if (!authorizeError) return;
    redirect.url.searchParams.delete('code');
    redirect.url.searchParams.set('error', authorizeError);
  });

  return {
    discoveryUrl: `${server.issuer.url}/.well-known/openid-configuration`,
    /** The person who logs in next. */
    setProfile(p: GoogleProfile) {
      profile = p;
    },
    /** Makes the next authorization answer with this OAuth error (e.g. the user declined). */
    failAuthorization(error: string | null) {
      authorizeError = error;
    },
    stop: () => server.stop(),
  };
}

/** The environment that turns "Continue with Google" on against the local provider. */
export function googleEnv(discoveryUrl: string): Record<string, string> {
  return { GOOGLE_CLIENT_ID: 'agora-test-client', GOOGLE_CLIENT_SECRET: 'agora-test-client-secret', GOOGLE_DISCOVERY_URL: discoveryUrl };
}
