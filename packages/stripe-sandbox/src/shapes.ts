import type Stripe from 'stripe';
import { newId, secret } from './ids.js';

/**
 * Builders of the Stripe objects the sandbox serves, typed by the SDK's own types
 * (node_modules/stripe/cjs/resources/*.d.ts, API version 2026-10-28.endive), so a missing
 * or misnamed field fails `tsc`. Private bookkeeping goes under `_sandbox` (never served).
 * Decimal fields are strings on the wire; the SDK's type is a class, hence the casts.
 */
const dec = (n: number | null) => (n === null ? null : (String(n) as unknown as Stripe.Decimal));

export interface Card {
  number: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export function customer(p: {
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  test_clock: string | null;
  created: number;
  phone: string | null;
}): Stripe.Customer {
  return {
    id: newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: p.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: p.description,
    discount: null,
    email: p.email,
    invoice_prefix: secret(8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: p.metadata,
    name: p.name,
    next_invoice_sequence: 1,
    phone: p.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: p.test_clock,
  };
}

export function product(p: {
  id?: string;
  name: string;
  description: string | null;
  metadata: Record<string, string>;
  active: boolean;
  created: number;
  default_price?: string | null;
}): Stripe.Product {
  return {
    id: p.id ?? newId('prod'),
    object: 'product',
    active: p.active,
    created: p.created,
    default_price: p.default_price ?? null,
    description: p.description,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: p.metadata,
    name: p.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: p.created,
    url: null,
  };
}

export function price(p: {
  product: string;
  currency: string;
  unit_amount: number;
  recurring: { interval: Stripe.Price.Recurring.Interval; interval_count: number } | null;
  metadata: Record<string, string>;
  nickname: string | null;
  lookup_key: string | null;
  active: boolean;
  created: number;
}): Stripe.Price {
  return {
    id: newId('price'),
    object: 'price',
    active: p.active,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: p.lookup_key,
    metadata: p.metadata,
    nickname: p.nickname,
    product: p.product,
    recurring: p.recurring ? { ...p.recurring, meter: null, trial_period_days: null, usage_type: 'licensed' } : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: p.recurring ? 'recurring' : 'one_time',
    unit_amount: p.unit_amount,
    unit_amount_decimal: dec(p.unit_amount),
  };
}

/** The legacy `plan` view of a recurring price (subscription items still carry it). */
export function planOf(pr: Stripe.Price): Stripe.Plan {
  return {
    id: pr.id,
    object: 'plan',
    active: pr.active,
    amount: pr.unit_amount,
    amount_decimal: dec(pr.unit_amount),
    billing_scheme: 'per_unit',
    created: pr.created,
    currency: pr.currency,
    interval: pr.recurring?.interval ?? 'month',
    interval_count: pr.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: pr.metadata,
    meter: null,
    nickname: pr.nickname,
    product: pr.product as string,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

/** A Checkout line item (`item`). */
export function checkoutLineItem(pr: Stripe.Price, quantity: number, description: string): Stripe.LineItem {
  const amount = (pr.unit_amount ?? 0) * quantity;
  return {
    id: newId('li'),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: pr.currency,
    description,
    metadata: {},
    price: pr,
    quantity,
  } as Stripe.LineItem;
}

export function checkoutSession(p: {
  mode: Stripe.Checkout.Session.Mode;
  customer: string | null;
  customer_email: string | null;
  currency: string;
  /** What is charged now: the subtotal less the discount. */
  amount: number;
  subtotal?: number;
  discount?: { amount: number; coupon: string; promotion_code: string | null } | null;
  metadata: Record<string, string>;
  return_url: string | null;
  success_url: string | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  ui_mode: Stripe.Checkout.Session.UiMode;
  created: number;
  expires_at: number;
  payment_method_types: string[];
  /** Public base URL of the sandbox (its checkout form). */
  baseUrl: string;
}): Stripe.Checkout.Session {
  const id = newId('cs_test');
  const embedded = p.ui_mode === 'embedded_page' || p.ui_mode === 'elements' || p.ui_mode === 'form';
  const clientSecret = embedded ? `${id}_secret_${secret(24)}` : null;
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: p.subtotal ?? p.amount,
    amount_total: p.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: p.cancel_url,
    client_reference_id: p.client_reference_id,
    client_secret: clientSecret,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: p.created,
    currency: p.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: p.customer,
    customer_account: null,
    customer_creation: p.customer ? null : 'if_required',
    customer_details: null,
    customer_email: p.customer_email,
    discounts: p.discount ? [{ coupon: p.discount.coupon, promotion_code: p.discount.promotion_code }] : [],
    expires_at: p.expires_at,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: p.metadata,
    mode: p.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: p.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: p.payment_method_types,
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    ...(embedded ? { redirect_on_completion: 'always' as const, return_url: p.return_url ?? undefined } : {}),
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: p.success_url,
    total_details: { amount_discount: p.discount?.amount ?? 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: p.ui_mode,
    // Stripe answers null for embedded sessions (Stripe.js finds its form from the client
    // secret); the sandbox has no Stripe.js, so `url` is its form to embed (a frame).
    url: `${p.baseUrl}/sandbox/checkout/${id}${clientSecret ? `?client_secret=${encodeURIComponent(clientSecret)}` : ''}`,
    wallet_options: null,
  };
}

export function paymentMethod(card: Card, customerId: string | null, created: number): Stripe.PaymentMethod {
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: secret(16),
      funding: 'credit',
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer: customerId,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  } as Stripe.PaymentMethod;
}

export function paymentIntent(p: {
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  application_fee_amount: number | null;
  destination: string | null;
  metadata: Record<string, string>;
  description: string | null;
  created: number;
  status: Stripe.PaymentIntent.Status;
  latest_charge: string | null;
}): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: p.amount,
    amount_capturable: 0,
    amount_details: { tip: {} } as Stripe.PaymentIntent.AmountDetails,
    amount_received: p.status === 'succeeded' ? p.amount : 0,
    application: null,
    application_fee_amount: p.application_fee_amount,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${secret(24)}`,
    confirmation_method: 'automatic',
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    description: p.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: p.latest_charge,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: p.payment_method,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    } as Stripe.PaymentIntent.PaymentMethodOptions,
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: p.status,
    transfer_data: p.destination ? { destination: p.destination } : null,
    transfer_group: p.destination ? `group_${id}` : null,
  };
}

export function charge(p: {
  amount: number;
  currency: string;
  customer: string | null;
  payment_intent: string;
  payment_method: string;
  card: Card;
  application_fee_amount: number | null;
  destination: string | null;
  metadata: Record<string, string>;
  description: string | null;
  created: number;
  receiptBase: string;
  billing_name: string | null;
  failure: { code: string; message: string; decline_code?: string } | null;
}): Stripe.Charge {
  const id = newId('ch');
  const paid = !p.failure;
  return {
    id,
    object: 'charge',
    amount: p.amount,
    amount_captured: paid ? p.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: p.application_fee_amount && paid ? `fee_${id.slice(3)}` : null,
    application_fee_amount: p.application_fee_amount,
    balance_transaction: paid ? `txn_${id.slice(3)}` : null,
    billing_details: { address: null, email: null, name: p.billing_name, phone: null, tax_id: null },
    calculated_statement_descriptor: 'AGORA',
    captured: paid,
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    description: p.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: p.failure?.code ?? null,
    failure_message: p.failure?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: p.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: paid ? 'approved_by_network' : 'declined_by_network',
      reason: p.failure?.decline_code ?? null,
      risk_level: 'normal',
      seller_message: paid ? 'Payment complete.' : 'The bank did not return any further details with this decline.',
      type: paid ? 'authorized' : 'issuer_declined',
    },
    paid,
    payment_intent: p.payment_intent,
    payment_method: p.payment_method,
    payment_method_details: {
      type: 'card',
      card: {
        brand: p.card.brand,
        last4: p.card.last4,
        exp_month: p.card.exp_month,
        exp_year: p.card.exp_year,
        country: 'US',
        funding: 'credit',
        network: p.card.brand,
      },
    } as unknown as Stripe.Charge.PaymentMethodDetails,
    receipt_email: null,
    receipt_number: null,
    receipt_url: paid ? `${p.receiptBase}/sandbox/receipts/${id}` : null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: paid ? 'succeeded' : 'failed',
    ...(p.destination && paid ? { transfer: `tr_${id.slice(3)}` } : {}),
    transfer_data: p.destination ? { amount: null, destination: p.destination } : null,
    transfer_group: p.destination ? `group_${p.payment_intent}` : null,
  };
}

export function refund(p: {
  amount: number;
  charge: Stripe.Charge;
  metadata: Record<string, string>;
  reason: Stripe.Refund.Reason | null;
  created: number;
  reverse_transfer: boolean;
}): Stripe.Refund {
  const id = newId('re');
  return {
    id,
    object: 'refund',
    amount: p.amount,
    balance_transaction: `txn_${id.slice(3)}`,
    charge: p.charge.id,
    created: p.created,
    currency: p.charge.currency,
    customer: p.charge.customer as string | null,
    customer_account: null,
    destination_details: {
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
      type: 'card',
    } as Stripe.Refund.DestinationDetails,
    metadata: p.metadata,
    payment_intent: p.charge.payment_intent as string | null,
    payment_method: p.charge.payment_method,
    reason: p.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: p.reverse_transfer ? `trr_${id.slice(3)}` : null,
  };
}

export function subscriptionItem(
  pr: Stripe.Price,
  subscription: string,
  quantity: number,
  start: number,
  end: number,
): Stripe.SubscriptionItem {
  return {
    id: newId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: start,
    current_period_end: end,
    current_period_start: start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(pr),
    price: pr,
    quantity,
    subscription,
    tax_rates: [],
  };
}

export function subscription(p: {
  id: string;
  customer: string;
  currency: string;
  default_payment_method: string | null;
  test_clock: string | null;
  metadata: Record<string, string>;
  application_fee_percent: number | null;
  destination: string | null;
  description: string | null;
  created: number;
  items: Stripe.SubscriptionItem[];
}): Stripe.Subscription {
  return {
    id: p.id,
    object: 'subscription',
    application: null,
    application_fee_percent: p.application_fee_percent,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: p.created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null } as Stripe.Subscription.CancellationDetails,
    collection_method: 'charge_automatically',
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: p.default_payment_method,
    default_source: null,
    default_tax_rates: [],
    description: p.description,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: { object: 'list', data: p.items, has_more: false, url: `/v1/subscription_items?subscription=${p.id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: p.created,
    status: 'active',
    test_clock: p.test_clock,
    transfer_data: p.destination ? { amount_percent: null, destination: p.destination } : null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } } as Stripe.Subscription.TrialSettings,
    trial_start: null,
  };
}

export function invoiceLine(p: {
  invoice: string;
  subscription: Stripe.Subscription;
  item: Stripe.SubscriptionItem;
  start: number;
  end: number;
}): Stripe.InvoiceLineItem {
  const pr = p.item.price;
  const qty = p.item.quantity ?? 1;
  const amount = (pr.unit_amount ?? 0) * qty;
  return {
    id: newId('il'),
    object: 'line_item',
    amount,
    currency: pr.currency,
    description: `${qty} × ${pr.nickname ?? 'Subscription'} (at ${(amount / 100).toFixed(2)} ${pr.currency.toUpperCase()} / ${pr.recurring?.interval ?? 'month'})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: p.invoice,
    livemode: false,
    metadata: p.subscription.metadata,
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: p.subscription.id,
        subscription_item: p.item.id,
      },
      type: 'subscription_item_details',
    } as Stripe.InvoiceLineItem.Parent,
    period: { start: p.start, end: p.end },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: pr.id, product: pr.product as string },
      type: 'price_details',
      unit_amount_decimal: dec(pr.unit_amount),
    } as Stripe.InvoiceLineItem.Pricing,
    quantity: qty,
    quantity_decimal: dec(qty),
    subscription: p.subscription.id,
    subtotal: amount,
    taxes: [],
  };
}

/** An invoice line of a one-time price (an invoice item), as Stripe bills a Checkout's one-time line item. */
export function oneTimeInvoiceLine(p: {
  invoice: string;
  subscription: Stripe.Subscription;
  price: Stripe.Price;
  quantity: number;
  at: number;
}): Stripe.InvoiceLineItem {
  const amount = (p.price.unit_amount ?? 0) * p.quantity;
  return {
    id: newId('il'),
    object: 'line_item',
    amount,
    currency: p.price.currency,
    description: p.price.nickname ?? 'One-time charge',
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: p.invoice,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: {
        credited_items: null,
        invoice_item: newId('ii'),
        proration: false,
        proration_details: { credited_items: null },
        subscription: p.subscription.id,
      },
      subscription_item_details: null,
      type: 'invoice_item_details',
    } as Stripe.InvoiceLineItem.Parent,
    period: { start: p.at, end: p.at },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: p.price.id, product: p.price.product as string },
      type: 'price_details',
      unit_amount_decimal: dec(p.price.unit_amount),
    } as Stripe.InvoiceLineItem.Pricing,
    quantity: p.quantity,
    quantity_decimal: dec(p.quantity),
    subscription: p.subscription.id,
    subtotal: amount,
    taxes: [],
  };
}

export function invoice(p: {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  billing_reason: Stripe.Invoice.BillingReason;
  created: number;
  period_start: number;
  period_end: number;
  number: string;
  baseUrl: string;
  /** One-time prices billed with this invoice only (a Checkout's one-time line items go on the first one). */
  oneTime?: { price: Stripe.Price; quantity: number }[];
}): Stripe.Invoice {
  const id = newId('in');
  const item = p.subscription.items.data[0];
  const line = invoiceLine({ invoice: id, subscription: p.subscription, item, start: p.period_start, end: p.period_end });
  const lines = [
    line,
    ...(p.oneTime ?? []).map((o) => oneTimeInvoiceLine({ invoice: id, subscription: p.subscription, ...o, at: p.created })),
  ];
  const amount = lines.reduce((n, l) => n + l.amount, 0);
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Stripe sandbox',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: p.billing_reason,
    collection_method: 'charge_automatically',
    created: p.created,
    currency: p.subscription.currency,
    custom_fields: null,
    customer: p.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: p.customer.email,
    customer_name: p.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: p.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `${p.baseUrl}/sandbox/invoices/${id}`,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: p.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: p.subscription.metadata, subscription: p.subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: p.period_end,
    period_start: p.period_start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'open',
    status_transitions: { finalized_at: p.created, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: p.subscription.test_clock as string | null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: p.created,
  };
}

export function invoicePayment(p: {
  invoice: Stripe.Invoice;
  payment_intent: string;
  paid_at: number | null;
  created: number;
}): Stripe.InvoicePayment {
  return {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: p.paid_at !== null ? p.invoice.amount_due : null,
    amount_requested: p.invoice.amount_due,
    created: p.created,
    currency: p.invoice.currency,
    invoice: p.invoice.id,
    is_default: true,
    livemode: false,
    payment: { payment_intent: p.payment_intent, type: 'payment_intent' },
    status: p.paid_at !== null ? 'paid' : 'open',
    status_transitions: { canceled_at: null, paid_at: p.paid_at },
  };
}

export function testClock(p: { frozen_time: number; name: string | null; created: number }): Stripe.TestHelpers.TestClock {
  return {
    id: newId('clock'),
    object: 'test_helpers.test_clock',
    created: p.created,
    deletes_after: p.created + 30 * 86400,
    frozen_time: p.frozen_time,
    livemode: false,
    name: p.name,
    status: 'ready',
    status_details: {},
  };
}

export const ONBOARDING_DUE = [
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'tos_acceptance.date',
];

export function account(p: {
  email: string | null;
  country: string;
  type: Stripe.Account.Type;
  metadata: Record<string, string>;
  capabilities: string[];
  created: number;
}): Stripe.Account {
  const capabilities: Record<string, 'inactive'> = {};
  for (const c of p.capabilities) capabilities[c] = 'inactive';
  const requirements = {
    alternatives: [],
    current_deadline: null,
    currently_due: [...ONBOARDING_DUE],
    disabled_reason: 'requirements.past_due',
    errors: [],
    eventually_due: [...ONBOARDING_DUE],
    past_due: [...ONBOARDING_DUE],
    pending_verification: [],
  } as Stripe.Account.Requirements;
  return {
    id: newId('acct'),
    object: 'account',
    business_profile: {
      mcc: null,
      name: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    } as Stripe.Account.BusinessProfile,
    business_type: null,
    capabilities: capabilities as Stripe.Account.Capabilities,
    charges_enabled: false,
    controller: {
      fees: { payer: 'application' },
      is_controller: true,
      losses: { payments: 'application' },
      requirement_collection: 'stripe',
      stripe_dashboard: { type: 'express' },
      type: 'application',
    } as Stripe.Account.Controller,
    country: p.country,
    created: p.created,
    default_currency: p.country === 'GB' ? 'gbp' : p.country === 'US' ? 'usd' : 'eur',
    details_submitted: false,
    email: p.email,
    external_accounts: { object: 'list', data: [], has_more: false, url: '' } as unknown as Stripe.ApiList<Stripe.ExternalAccount>,
    future_requirements: {
      ...requirements,
      currently_due: [],
      eventually_due: [],
      past_due: [],
      disabled_reason: null,
    } as Stripe.Account.FutureRequirements,
    metadata: p.metadata,
    payouts_enabled: false,
    requirements,
    settings: null,
    tos_acceptance: { date: null, ip: null, user_agent: null } as Stripe.Account.TosAcceptance,
    type: p.type,
  };
}
