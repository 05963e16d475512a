import type { Obj } from '../store.js';
import { formatDate, formatMoney, html, page, raw, testModeNote, type Raw } from './layout.js';

/** Receipt of a charge (the charge's receipt_url). */
export function receiptPage(charge: Obj, refunds: Obj[]): string {
  const card = charge.payment_method_details?.card;
  const body = html`<main class="card narrow" aria-labelledby="receipt-title">
  <h1 id="receipt-title">Receipt</h1>
  <p class="muted">Payments sandbox (test mode)</p>
  <dl class="facts">
    <div><dt>Amount paid</dt><dd>${formatMoney(charge.amount, charge.currency)}</dd></div>
    <div><dt>Date paid</dt><dd>${formatDate(charge.created)}</dd></div>
    <div><dt>Payment method</dt><dd>${card ? `${card.brand} •••• ${card.last4}` : 'card'}</dd></div>
    <div><dt>Description</dt><dd>${charge.description ?? '—'}</dd></div>
    <div><dt>Receipt id</dt><dd><code>${charge.id}</code></dd></div>
    ${charge.amount_refunded ? html`<div><dt>Refunded</dt><dd>${formatMoney(charge.amount_refunded, charge.currency)}</dd></div>` : ''}
  </dl>
  ${refunds.length ? html`<h2>Refunds</h2><ul>${refunds.map((r) => html`<li>${formatMoney(r.amount, r.currency)} on ${formatDate(r.created)}</li>`)}</ul>` : ''}
</main>`;
  return page({ title: `Receipt ${charge.id}`, body });
}

/** Connect onboarding (where Stripe's hosted onboarding would be). */
export function onboardingPage(acct: Obj, query: { return_url: string; refresh_url: string; expired: boolean }): string {
  const action = `/sandbox/connect/onboard/${acct.id}?${new URLSearchParams({ return_url: query.return_url, refresh_url: query.refresh_url })}`;
  const body = query.expired
    ? html`<main class="card narrow"><h1>This link has expired</h1><p><a href="${query.refresh_url}">Get a new onboarding link</a></p></main>`
    : html`<main class="card narrow" aria-labelledby="onboard-title">
  <h1 id="onboard-title">Set up payouts</h1>
  <p class="muted">Connected account <code>${acct.id}</code>${acct.email ? ` for ${acct.email}` : ''}</p>
  <form method="post" action="${action}" class="form">
    <div class="field"><label for="legal-name">Legal name</label><input id="legal-name" name="legal_name" autocomplete="name" required value="${acct.business_profile?.name ?? ''}"></div>
    <div class="field"><label for="country">Country</label>
      <select id="country" name="country">${['US', 'GB', 'FR', 'DE', 'IE', 'ES', 'NL', 'CA', 'AU'].map((c) => html`<option value="${c}"${raw(c === acct.country ? ' selected' : '')}>${c}</option>`)}</select></div>
    <div class="row">
      <div class="field"><label for="routing">Routing number</label><input id="routing" name="routing_number" inputmode="numeric" value="110000000" required></div>
      <div class="field"><label for="account-number">Account number</label><input id="account-number" name="account_number" inputmode="numeric" value="000123456789" required></div>
    </div>
    <p class="muted">Test bank account prefilled. Submitting enables charges and payouts.</p>
    <button type="submit" class="pay">Agree and submit</button>
  </form>
  <aside class="test-note"><p><strong>Test mode — payments sandbox.</strong> No identity checks, no real bank.</p></aside>
</main>`;
  return page({ title: 'Set up payouts', body });
}

/** Express-dashboard-like page of a connected account (login link). */
export function expressDashboardPage(acct: Obj, charges: Obj[], refunds: Obj[]): string {
  let balance = 0;
  const currency = charges[0]?.currency ?? acct.default_currency ?? 'usd';
  const reversedByCharge = new Map<string, number>();
  for (const r of refunds) reversedByCharge.set(r.charge, (reversedByCharge.get(r.charge) ?? 0) + (r._sandbox?.reversed ?? 0) - (r._sandbox?.fee_refunded ?? 0));
  const rows = charges.map((c) => {
    const fee = c.application_fee_amount ?? 0;
    const net = c.amount - fee - (reversedByCharge.get(c.id) ?? 0);
    balance += net;
    return html`<tr><td>${formatDate(c.created)}</td><td>${c.description ?? c.id}</td><td class="num">${formatMoney(c.amount, c.currency)}</td><td class="num">${formatMoney(fee, c.currency)}</td><td class="num">${c.amount_refunded ? formatMoney(c.amount_refunded, c.currency) : '—'}</td><td class="num"><strong>${formatMoney(net, c.currency)}</strong></td></tr>`;
  });
  const body = html`<main class="wide" aria-labelledby="express-title">
  <header class="bar"><h1 id="express-title">Payouts dashboard</h1><p class="muted">${acct.business_profile?.name ?? acct.email ?? acct.id} · test mode</p></header>
  <section class="card" aria-label="Balance"><p class="muted">Balance</p><p class="big">${formatMoney(balance, currency)}</p>
    <p class="muted">Payouts ${acct.payouts_enabled ? 'enabled' : 'not enabled'} · to bank •••• 6789</p></section>
  <section class="card" aria-labelledby="payments-title"><h2 id="payments-title">Payments</h2>
    ${charges.length ? html`<div class="scroll"><table><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Platform fee</th><th scope="col" class="num">Refunded</th><th scope="col" class="num">Net</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p>No payments yet.</p>`}
  </section>
</main>`;
  return page({ title: 'Payouts dashboard', body });
}

export interface DashboardData {
  customers: Obj[];
  charges: Obj[];
  subscriptions: Obj[];
  events: { event: Obj; delivered: boolean; attempts: number; lastStatus: number | null; lastError: string | null }[];
  clocks: Map<string, number>;
  webhookUrl: string | null;
}

/** The developer dashboard at /sandbox. */
export function devDashboardPage(d: DashboardData): string {
  const section = (id: string, title: string, content: Raw) => html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;
  const table = (head: string[], rows: Raw[], empty: string) =>
    rows.length ? html`<div class="scroll"><table><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>` : html`<p>${empty}</p>`;
  const body = html`<main class="wide">
  <header class="bar"><h1>Payments sandbox</h1><p class="muted">Development tool — a local stand-in for Stripe. Webhooks go to <code>${d.webhookUrl ?? '(not listening yet)'}</code>.</p></header>
  <div id="dashboard-status" role="status" aria-live="polite" class="status"></div>
  ${section('customers-title', 'Customers', table(['Customer', 'Email', 'Clock time', 'Actions'], d.customers.map((c) => html`<tr><td><code>${c.id}</code><br>${c.name ?? ''}</td><td>${c.email ?? '—'}</td><td>${c.test_clock ? formatDate(d.clocks.get(c.test_clock)) : 'real time'}</td>
      <td class="actions"><button type="button" data-advance="${c.id}" data-months="1">Advance 1 month</button>
      <button type="button" data-advance="${c.id}" data-days="3">Advance 3 days</button>
      <button type="button" data-card="${c.id}" data-number="4000000000000341">Make later charges fail</button>
      <button type="button" data-card="${c.id}" data-number="4242424242424242">Use 4242 card</button></td></tr>`), 'No customers yet.'))}
  ${section('subs-title', 'Subscriptions', table(['Subscription', 'Customer', 'Status', 'Amount', 'Period ends', 'Ends at', ''], d.subscriptions.map((s) => {
    const item = s.items.data[0];
    return html`<tr><td><code>${s.id}</code></td><td><code>${s.customer}</code></td><td><span class="badge ${s.status}">${s.status}</span></td><td>${formatMoney(item.price.unit_amount * (item.quantity ?? 1), item.price.currency)} / ${item.price.recurring?.interval}</td><td>${formatDate(item.current_period_end)}</td><td>${formatDate(s.cancel_at)}</td>
      <td>${s.status === 'canceled' ? '' : html`<button type="button" data-advance="${s.customer}" data-months="1">Advance 1 month</button>`}</td></tr>`;
  }), 'No subscriptions yet.'))}
  ${section('payments-title', 'Payments', table(['Charge', 'Amount', 'Status', 'Fee', 'Destination', 'Refunded', 'Receipt'], d.charges.map((c) => html`<tr><td><code>${c.id}</code><br>${formatDate(c.created)}</td><td>${formatMoney(c.amount, c.currency)}</td><td><span class="badge ${c.status}">${c.status}</span>${c.failure_message ? html`<br><small>${c.failure_message}</small>` : ''}</td><td>${c.application_fee_amount !== null ? formatMoney(c.application_fee_amount, c.currency) : '—'}</td><td>${c.transfer_data?.destination ? html`<code>${c.transfer_data.destination}</code>` : '—'}</td><td>${c.amount_refunded ? formatMoney(c.amount_refunded, c.currency) : '—'}</td><td>${c.receipt_url ? html`<a href="/sandbox/receipts/${c.id}">Receipt</a>` : ''}</td></tr>`), 'No payments yet.'))}
  ${section('events-title', 'Recent events', table(['Event', 'Type', 'Object', 'Delivery'], d.events.map(({ event, delivered, attempts, lastStatus, lastError }) => html`<tr><td><code>${event.id}</code><br>${formatDate(event.created)}</td><td>${event.type}${event.account ? html`<br><small>Connect ${event.account}</small>` : ''}</td><td><code>${event.data?.object?.id}</code></td><td>${delivered ? html`<span class="badge succeeded">delivered</span> (${lastStatus})` : html`<span class="badge past_due">pending</span> ${attempts} attempt${attempts === 1 ? '' : 's'}${lastError ? ` — ${lastError}` : ''}`}</td></tr>`), 'No events yet.'))}
</main>`;
  return page({ title: 'Payments sandbox', body, scripts: ['dashboard.js'] });
}

export { testModeNote };

/** A page for a missing object or a bad form submission. */
export function errorPage(status: number, title: string, detail: string): string {
  const body = html`<main class="card narrow" aria-labelledby="error-title">
  <p class="muted">${status}</p>
  <h1 id="error-title">${title}</h1>
  <p>${detail}</p>
</main>`;
  return page({ title, body });
}
