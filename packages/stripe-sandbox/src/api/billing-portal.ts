import { newId } from '../ids.js';
import { get, insert, unixNow, type Obj } from '../store.js';
import type { Router } from './router.js';

/**
 * The customer portal (`billing_portal.session`): Stripe's hosted page where a customer
 * changes the card of their subscriptions. The sandbox answers a session whose `url` is
 * its own card-update page (/sandbox/billing/:id); submitting a card there makes it the
 * customer's default and every active subscription's, then returns to `return_url`.
 */
export function billingPortalRoutes(r: Router) {
  r.post('/billing_portal/sessions', async ({ ctx, params }) => {
    const customer = await get(ctx, params.str('customer', true), 'customer', { param: 'customer', anyAccount: true });
    const id = newId('bps');
    const flow = params.obj('flow_data');
    const session: Obj = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_sandbox',
      created: unixNow(),
      customer: customer.id,
      flow: flow ? { type: flow.str('type') ?? null } : null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: params.str('return_url') ?? null,
      url: `${ctx.base}/sandbox/billing/${id}`,
    };
    await insert(ctx, session, { parent: customer.id, account: null });
    return session;
  });
}
