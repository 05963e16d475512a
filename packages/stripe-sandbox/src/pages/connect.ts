import type { Obj } from '../store.js';
import { formatDate, formatMoney, html, page, raw } from './layout.js';

/** Connect onboarding (where Stripe's hosted onboarding would be). */
export function onboardingPage(acct: Obj, query: { return_url: string; refresh_url: string; expired: boolean }): string {
  const action = `/sandbox/connect/onboard/${acct.id}?${new URLSearchParams({ return_url: query.return_url, refresh_url: query.refresh_url })}`;
  const body = query.expired
    ? html`<main class="card narrow">
        <h1>This link has expired</h1>
        <p><a href="${query.refresh_url}">Get a new onboarding link</a></p>
      </main>`
    : html`<main class="card narrow" aria-labelledby="onboard-title">
        <h1 id="onboard-title">Set up payouts</h1>
        <p class="muted">Connected account <code>${acct.id}</code>${acct.email ? ` for ${acct.email}` : ''}</p>
        <form method="post" action="${action}" class="form">
          <div class="field">
            <label for="legal-name">Legal name</label
            ><input id="legal-name" name="legal_name" autocomplete="name" required value="${acct.business_profile?.name ?? ''}" />
          </div>
          <div class="field">
            <label for="country">Country</label>
            <select id="country" name="country">
              ${['US', 'GB', 'FR', 'DE', 'IE', 'ES', 'NL', 'CA', 'AU'].map((c) => html`<option value="${c}" ${raw(c === acct.country ? ' selected' : '')}>${c}</option>`)}
            </select>
          </div>
          <div class="row">
            <div class="field">
              <label for="routing">Routing number</label
              ><input id="routing" name="routing_number" inputmode="numeric" value="110000000" required />
            </div>
            <div class="field">
              <label for="account-number">Account number</label
              ><input id="account-number" name="account_number" inputmode="numeric" value="000123456789" required />
            </div>
          </div>
          <p class="muted">Test bank account prefilled. Submitting enables charges and payouts.</p>
          <button type="submit" class="pay">Agree and submit</button>
        </form>
        <aside class="test-note">
          <p><strong>Test mode — payments sandbox.</strong> No identity checks, no real bank.</p>
        </aside>
      </main>`;
  return page({ title: 'Set up payouts', body });
}

/** Express-dashboard-like page of a connected account (login link). */
export function expressDashboardPage(acct: Obj, charges: Obj[], refunds: Obj[]): string {
  let balance = 0;
  const currency = charges[0]?.currency ?? acct.default_currency ?? 'usd';
  const reversedByCharge = new Map<string, number>();
  for (const r of refunds)
    reversedByCharge.set(r.charge, (reversedByCharge.get(r.charge) ?? 0) + (r._sandbox?.reversed ?? 0) - (r._sandbox?.fee_refunded ?? 0));
  const rows = charges.map((c) => {
    const fee = c.application_fee_amount ?? 0;
    const net = c.amount - fee - (reversedByCharge.get(c.id) ?? 0);
    balance += net;
    return html`<tr>
      <td>${formatDate(c.created)}</td>
      <td>${c.description ?? c.id}</td>
      <td class="num">${formatMoney(c.amount, c.currency)}</td>
      <td class="num">${formatMoney(fee, c.currency)}</td>
      <td class="num">${c.amount_refunded ? formatMoney(c.amount_refunded, c.currency) : '—'}</td>
      <td class="num"><strong>${formatMoney(net, c.currency)}</strong></td>
    </tr>`;
  });
  const body = html`<main class="wide" aria-labelledby="express-title">
    <header class="bar">
      <h1 id="express-title">Payouts dashboard</h1>
      <p class="muted">${acct.business_profile?.name ?? acct.email ?? acct.id} · test mode</p>
    </header>
    <section class="card" aria-label="Balance">
      <p class="muted">Balance</p>
      <p class="big">${formatMoney(balance, currency)}</p>
      <p class="muted">Payouts ${acct.payouts_enabled ? 'enabled' : 'not enabled'} · to bank •••• 6789</p>
    </section>
    <section class="card" aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      ${
        charges.length
          ? html`<div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Description</th>
                    <th scope="col" class="num">Amount</th>
                    <th scope="col" class="num">Platform fee</th>
                    <th scope="col" class="num">Refunded</th>
                    <th scope="col" class="num">Net</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows}
                </tbody>
              </table>
            </div>`
          : html`<p>No payments yet.</p>`
      }
    </section>
  </main>`;
  return page({ title: 'Payouts dashboard', body });
}

/** The customer portal's card update (where Stripe's hosted portal would be). */
export function cardUpdatePage(session: Obj, opts: { error?: string; last4?: string | null }): string {
  const back = session.return_url ?? '/';
  const body = html`<main class="card narrow" aria-labelledby="card-title">
    <h1 id="card-title">Change your card</h1>
    <p class="muted">The new card pays your next installments${opts.last4 ? html` (instead of the card ending in ${opts.last4})` : ''}.</p>
    ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
    <form method="post" action="/sandbox/billing/${session.id}" class="form">
      <div class="field">
        <label for="number">Card number</label
        ><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required />
      </div>
      <div class="row">
        <div class="field">
          <label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" autocomplete="cc-exp" placeholder="12/34" required />
        </div>
        <div class="field">
          <label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required />
        </div>
      </div>
      <button type="submit" class="pay">Save card</button>
    </form>
    <p><a href="${back}">Back without changing</a></p>
    <aside class="test-note">
      <p><strong>Test mode — payments sandbox.</strong> Use 4242 4242 4242 4242, any future date and any CVC.</p>
    </aside>
  </main>`;
  return page({ title: 'Change your card', body });
}
