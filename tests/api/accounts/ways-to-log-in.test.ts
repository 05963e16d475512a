import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import { googleEnv, startOidcProvider } from '../../support/oidc.js';

/**
 * Issue 23, item 4: "Ways to log in" speaks of Google only where Google is set up. The
 * refusal to remove the last way in does not tell a person to link what does not exist.
 */
let plain: TestApp;
let withGoogle: TestApp;
let google: Awaited<ReturnType<typeof startOidcProvider>>;
beforeAll(async () => {
  google = await startOidcProvider();
  [plain, withGoogle] = await Promise.all([buildTestApp(), buildTestApp(googleEnv(google.discoveryUrl))]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), withGoogle?.close()]);
  await google?.stop();
});

async function removeOnlyPassword(app: TestApp) {
  const u = await createSignedInUser(app);
  const list = (await get(app, '/api/accounts/linked-accounts', { cookie: u.cookie })).json();
  const res = await post(app, '/api/accounts/linked-accounts/unlink', { provider: 'password' }, { cookie: u.cookie });
  expect(res.statusCode).toBe(409);
  expect(res.json().error.code).toBe('single_identity_not_deletable');
  return { googleAvailable: list.googleAvailable as boolean, message: res.json().error.message as string };
}

describe('ways to log in', () => {
  it('without Google set up: no Google offered, and the refusal does not send the person to link it', async () => {
    const { googleAvailable, message } = await removeOnlyPassword(plain);
    expect(googleAvailable).toBe(false);
    expect(message).toBe('Your password is the only way to log in to this account, so it cannot be removed.');
    expect(message).not.toMatch(/google/i);
  });

  it('with Google set up: the refusal says how to make the password removable', async () => {
    const { googleAvailable, message } = await removeOnlyPassword(withGoogle);
    expect(googleAvailable).toBe(true);
    expect(message).toBe('Your password is the only way to log in to this account, so it cannot be removed. Link Google first.');
  });
});
