import type { Obj } from '../store.js';
import { formatDate, formatMoney, html, page, type Raw } from './layout.js';

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
  const section = (id: string, title: string, content: Raw) =>
    html`<section class="card" aria-labelledby="${id}">
      <h2 id="${id}">${title}</h2>
      ${content}
    </section>`;
  const table = (head: string[], rows: Raw[], empty: string) =>
    rows.length
      ? html`<div class="scroll">
          <table>
            <thead>
              <tr>
                ${head.map((h) => html`<th scope="col">${h}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </div>`
      : html`<p>${empty}</p>`;
  const body = html`<main class="wide">
    <header class="bar">
      <h1>Payments sandbox</h1>
      <p class="muted">
        Development tool — a local stand-in for Stripe. Webhooks go to <code>${d.webhookUrl ?? '(not listening yet)'}</code>.
      </p>
    </header>
    <div id="dashboard-status" role="status" aria-live="polite" class="status"></div>
    ${section(
      'customers-title',
      'Customers',
      table(
        ['Customer', 'Email', 'Clock time', 'Actions'],
        d.customers.map(
          (c) =>
            html`<tr>
              <td><code>${c.id}</code><br />${c.name ?? ''}</td>
              <td>${c.email ?? '—'}</td>
              <td>${c.test_clock ? formatDate(d.clocks.get(c.test_clock)) : 'real time'}</td>
              <td class="actions">
                <button type="button" data-advance="${c.id}" data-months="1">Advance 1 month</button>
                <button type="button" data-advance="${c.id}" data-days="3">Advance 3 days</button>
                <button type="button" data-card="${c.id}" data-number="4000000000000341">Make later charges fail</button>
                <button type="button" data-card="${c.id}" data-number="4242424242424242">Use 4242 card</button>
              </td>
            </tr>`,
        ),
        'No customers yet.',
      ),
    )}
    ${section(
      'subs-title',
      'Subscriptions',
      table(
        ['Subscription', 'Customer', 'Status', 'Amount', 'Period ends', 'Ends at', ''],
        d.subscriptions.map((s) => {
          const item = s.items.data[0];
          return html`<tr>
            <td><code>${s.id}</code></td>
            <td><code>${s.customer}</code></td>
            <td><span class="badge ${s.status}">${s.status}</span></td>
            <td>${formatMoney(item.price.unit_amount * (item.quantity ?? 1), item.price.currency)} / ${item.price.recurring?.interval}</td>
            <td>${formatDate(item.current_period_end)}</td>
            <td>${formatDate(s.cancel_at)}</td>
            <td>
              ${s.status === 'canceled' ? '' : html`<button type="button" data-advance="${s.customer}" data-months="1">Advance 1 month</button>`}
            </td>
          </tr>`;
        }),
        'No subscriptions yet.',
      ),
    )}
    ${section(
      'payments-title',
      'Payments',
      table(
        ['Charge', 'Amount', 'Status', 'Fee', 'Destination', 'Refunded', 'Receipt'],
        d.charges.map(
          (c) =>
            html`<tr>
              <td><code>${c.id}</code><br />${formatDate(c.created)}</td>
              <td>${formatMoney(c.amount, c.currency)}</td>
              <td>
                <span class="badge ${c.status}">${c.status}</span
                >${c.failure_message ? html`<br /><small>${c.failure_message}</small>` : ''}
              </td>
              <td>${c.application_fee_amount !== null ? formatMoney(c.application_fee_amount, c.currency) : '—'}</td>
              <td>${c.transfer_data?.destination ? html`<code>${c.transfer_data.destination}</code>` : '—'}</td>
              <td>${c.amount_refunded ? formatMoney(c.amount_refunded, c.currency) : '—'}</td>
              <td>${c.receipt_url ? html`<a href="/sandbox/receipts/${c.id}">Receipt</a>` : ''}</td>
            </tr>`,
        ),
        'No payments yet.',
      ),
    )}
    ${section(
      'events-title',
      'Recent events',
      table(
        ['Event', 'Type', 'Object', 'Delivery'],
        d.events.map(
          ({ event, delivered, attempts, lastStatus, lastError }) =>
            html`<tr>
              <td><code>${event.id}</code><br />${formatDate(event.created)}</td>
              <td>${event.type}${event.account ? html`<br /><small>Connect ${event.account}</small>` : ''}</td>
              <td><code>${event.data?.object?.id}</code></td>
              <td>
                ${delivered ? html`<span class="badge succeeded">delivered</span> (${lastStatus})` : html`<span class="badge past_due">pending</span> ${attempts} attempt${attempts === 1 ? '' : 's'}${lastError ? ` — ${lastError}` : ''}`}
              </td>
            </tr>`,
        ),
        'No events yet.',
      ),
    )}
  </main>`;
  return page({ title: 'Payments sandbox', body, scripts: ['dashboard.js'] });
}
