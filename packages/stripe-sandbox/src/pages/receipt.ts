import type { Obj } from '../store.js';
import { formatDate, formatMoney, html, page } from './layout.js';

/** Receipt of a charge (the charge's receipt_url). */
export function receiptPage(charge: Obj, refunds: Obj[]): string {
  const card = charge.payment_method_details?.card;
  const body = html`<main class="card narrow" aria-labelledby="receipt-title">
    <h1 id="receipt-title">Receipt</h1>
    <p class="muted">Payments sandbox (test mode)</p>
    <dl class="facts">
      <div>
        <dt>Amount paid</dt>
        <dd>${formatMoney(charge.amount, charge.currency)}</dd>
      </div>
      <div>
        <dt>Date paid</dt>
        <dd>${formatDate(charge.created)}</dd>
      </div>
      <div>
        <dt>Payment method</dt>
        <dd>${card ? `${card.brand} •••• ${card.last4}` : 'card'}</dd>
      </div>
      <div>
        <dt>Description</dt>
        <dd>${charge.description ?? '—'}</dd>
      </div>
      <div>
        <dt>Receipt id</dt>
        <dd><code>${charge.id}</code></dd>
      </div>
      ${
        charge.amount_refunded
          ? html`<div>
              <dt>Refunded</dt>
              <dd>${formatMoney(charge.amount_refunded, charge.currency)}</dd>
            </div>`
          : ''
      }
    </dl>
    ${
      refunds.length
        ? html`<h2>Refunds</h2>
            <ul>
              ${refunds.map((r) => html`<li>${formatMoney(r.amount, r.currency)} on ${formatDate(r.created)}</li>`)}
            </ul>`
        : ''
    }
  </main>`;
  return page({ title: `Receipt ${charge.id}`, body });
}
