import { invalidRequest } from '../errors.js';
import { mergeMetadata } from '../params.js';
import * as shapes from '../shapes.js';
import { emit, get, insert, list, listEnvelope, save, unixNow, type Obj } from '../store.js';
import { page, type Router } from './router.js';

/** Connect: Express accounts, onboarding links, login links to the Express dashboard. */
export function connectRoutes(r: Router) {
  r.post('/accounts', async ({ ctx, params }) => {
    const type = params.oneOf('type', ['express', 'standard', 'custom'] as const) ?? 'express';
    const country = (params.str('country') ?? 'US').toUpperCase();
    if (!/^[A-Z]{2}$/.test(country))
      throw invalidRequest(
        `Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'.`,
        { param: 'country' },
      );
    const caps = params.obj('capabilities');
    const capabilities = caps ? Object.keys(caps.raw).filter((k) => caps.obj(k)?.bool('requested')) : ['card_payments', 'transfers'];
    const acct = shapes.account({
      email: params.str('email') ?? null,
      country,
      type,
      metadata: params.metadata() ?? {},
      capabilities,
      created: unixNow(),
    }) as Obj;
    if (params.has('business_type')) acct.business_type = params.str('business_type');
    await insert(ctx, acct, { account: null });
    return acct;
  });
  r.get('/accounts/:id', ({ ctx, path }) => get(ctx, path.id, 'account', { anyAccount: true }));
  r.post('/accounts/:id', async ({ ctx, path, params }) => {
    const acct = await get(ctx, path.id, 'account', { lock: true, anyAccount: true });
    if (params.has('email')) acct.email = params.str('email') ?? null;
    if (params.has('metadata')) acct.metadata = mergeMetadata(acct.metadata, params.metadata());
    await save(ctx, acct);
    await emit(ctx, 'account.updated', acct, { account: acct.id });
    return acct;
  });
  r.get('/accounts', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'account', { ...page(params), anyAccount: true });
    return listEnvelope('/v1/accounts', data, hasMore);
  });

  r.post('/account_links', async ({ ctx, params }) => {
    const account = params.str('account', true);
    await get(ctx, account, 'account', { param: 'account', anyAccount: true });
    const refresh_url = params.str('refresh_url', true);
    const return_url = params.str('return_url', true);
    const type = params.oneOf('type', ['account_onboarding', 'account_update'] as const, true);
    const created = unixNow();
    const q = new URLSearchParams({ refresh_url, return_url, type: type!, expires: String(created + 300) });
    return { object: 'account_link', created, expires_at: created + 300, url: `${ctx.base}/sandbox/connect/onboard/${account}?${q}` };
  });

  r.post('/accounts/:id/login_links', async ({ ctx, path }) => {
    const acct = await get(ctx, path.id, 'account', { anyAccount: true });
    if (!acct.details_submitted) {
      throw invalidRequest('Cannot create a login link for an account that has not completed onboarding.', { param: 'account' });
    }
    return { object: 'login_link', created: unixNow(), url: `${ctx.base}/sandbox/connect/dashboard/${acct.id}` };
  });
}

/** Onboarding submitted: the account can take charges and receive payouts. */
export async function completeOnboarding(ctx: import('../store.js').Ctx, accountId: string, form: { name: string; country: string }) {
  const acct = await get(ctx, accountId, 'account', { lock: true, anyAccount: true });
  const previous = {
    charges_enabled: acct.charges_enabled,
    payouts_enabled: acct.payouts_enabled,
    details_submitted: acct.details_submitted,
    requirements: acct.requirements,
  };
  acct.charges_enabled = true;
  acct.payouts_enabled = true;
  acct.details_submitted = true;
  acct.requirements = {
    ...acct.requirements,
    currently_due: [],
    eventually_due: [],
    past_due: [],
    disabled_reason: null,
    current_deadline: null,
  };
  for (const cap of Object.keys(acct.capabilities ?? {})) acct.capabilities[cap] = 'active';
  acct.capabilities = { card_payments: 'active', transfers: 'active', ...acct.capabilities };
  acct.business_profile = { ...acct.business_profile, name: form.name };
  acct.country = form.country || acct.country;
  acct.tos_acceptance = { date: unixNow(), ip: '127.0.0.1', user_agent: 'payments-sandbox' };
  acct.external_accounts = {
    object: 'list',
    data: [
      {
        id: `ba_${acct.id.slice(5)}`,
        object: 'bank_account',
        account: acct.id,
        bank_name: 'STRIPE TEST BANK',
        country: acct.country,
        currency: acct.default_currency,
        last4: '6789',
        routing_number: '110000000',
        status: 'new',
        default_for_currency: true,
      },
    ],
    has_more: false,
    url: `/v1/accounts/${acct.id}/external_accounts`,
  };
  await save(ctx, acct);
  // A Connect event: it carries `account` and is signed with the Connect secret.
  await emit(ctx, 'account.updated', acct, { account: acct.id, previousAttributes: previous });
  return acct;
}
