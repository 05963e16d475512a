import type Stripe from 'stripe';
import type { Obj } from '../store.js';
import { formatMoney, html, page, testModeNote } from './layout.js';

/** "then $40.00 per month" / "every 3 months" */
function cadence(price: Stripe.Price): string {
  const r = price.recurring;
  if (!r) return '';
  return r.interval_count === 1 ? `per ${r.interval}` : `every ${r.interval_count} ${r.interval}s`;
}

/** Stripe's words for what follows today's payment: "Then $33.33 per month". */
function thenLine(price: Stripe.Price, laterDiscount = 0): string {
  return `Then ${formatMoney((price.unit_amount ?? 0) - laterDiscount, price.currency)} ${cadence(price)}`;
}

/**
 * The checkout form shown where Stripe's Embedded Checkout would be (in an iframe of the
 * app's checkout page). Plain HTML; /sandbox/assets/checkout.js submits it and moves the
 * top window to the return URL once paid.
 */
export function checkoutPage(session: Obj, clientSecret: string): string {
  const items = (session._sandbox?.line_items ?? []) as Stripe.LineItem[];
  const total = formatMoney(session.amount_total, session.currency);
  const recurring = items.find((li) => li.price?.recurring);
  // Stripe shows the subscription's description (subscription_data.description) to the customer.
  const description = (session._sandbox?.subscription_data as { description?: string | null } | undefined)?.description;
  const discount = session.total_details?.amount_discount ?? 0;
  const discountLine = discount
    ? html`<p class="discount"><span>Discount</span> <span>−${formatMoney(discount, session.currency)}</span></p>`
    : '';
  const laterDiscount = (session._sandbox?.discount?.later as number | undefined) ?? 0;
  const summary = recurring
    ? html`${discountLine}
        <p class="total"><span>Due today</span> <strong>${total}</strong></p>
        <p class="then">${thenLine(recurring.price!, laterDiscount)}</p>
        ${description ? html`<p class="description">${description}</p>` : ''}`
    : html`${discountLine}
        <p class="total"><span>Total</span> <strong>${total}</strong></p>`;

  if (session.status !== 'open') {
    const message =
      session.status === 'complete'
        ? 'This payment is complete. You can close this page.'
        : 'This checkout session has expired. Go back and start again.';
    return page({
      title: 'Checkout',
      body: html`<main class="card narrow">
        <h1>Checkout</h1>
        <p role="status">${message}</p>
      </main>`,
    });
  }

  const body = html`<main class="card narrow" aria-labelledby="checkout-title">
    <h1 id="checkout-title">${recurring ? 'Subscribe' : 'Pay'}</h1>
    <section class="summary" aria-label="Order summary">
      <ul class="lines">
        ${items.map((li) => html`<li><span>${li.description}${(li.quantity ?? 1) > 1 ? ` × ${li.quantity}` : ''}</span> <span>${formatMoney(li.amount_total, li.currency)}${li.price?.recurring ? ` ${cadence(li.price)}` : ''}</span></li>`)}
      </ul>
      ${summary}
    </section>
    <form
      id="checkout-form"
      class="form"
      method="post"
      novalidate
      data-session="${session.id}"
      data-client-secret="${clientSecret}"
      action="/sandbox/api/checkout/${session.id}/confirm"
    >
      <div id="checkout-error" class="error" role="alert" aria-live="assertive" tabindex="-1"></div>
      <div class="field">
        <label for="card-number">Card number</label>
        <input
          id="card-number"
          name="number"
          inputmode="numeric"
          autocomplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxlength="23"
          required
          aria-describedby="checkout-error"
        />
      </div>
      <div class="row">
        <div class="field">
          <label for="card-exp">Expiry (MM/YY)</label>
          <input id="card-exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required />
        </div>
        <div class="field">
          <label for="card-cvc">CVC</label>
          <input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" required />
        </div>
      </div>
      <div class="field">
        <label for="card-name">Name on card</label>
        <input id="card-name" name="name" autocomplete="cc-name" required />
      </div>
      <button type="submit" class="pay" id="pay-button">${recurring ? `Subscribe — ${total}` : `Pay ${total}`}</button>
    </form>
    ${testModeNote()}
  </main>`;
  return page({ title: `Checkout — ${total}`, body, scripts: ['checkout.js'], bodyClass: 'embedded' });
}
