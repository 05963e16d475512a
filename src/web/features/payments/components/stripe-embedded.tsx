import { useEffect, useRef, useState } from 'react';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Alert } from '@web/components/ui/alert';
import { Spinner } from '@web/components/ui/spinner';

/**
 * Stripe's Embedded Checkout (real Stripe mode). This module is its own chunk, imported
 * only by the card form, so Stripe.js is fetched on the checkout pages and nowhere else.
 */
export default function StripeEmbedded({ publishableKey, clientSecret }: { publishableKey: string; clientSecret: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    (async () => {
      const stripe = await loadStripe(publishableKey);
      if (!stripe || cancelled) throw new Error('Stripe.js did not load');
      const checkout = await stripe.createEmbeddedCheckoutPage({ fetchClientSecret: async () => clientSecret });
      if (cancelled) return checkout.destroy();
      destroy = () => checkout.destroy();
      checkout.mount(host.current!);
      setState('ready');
    })().catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [publishableKey, clientSecret]);
  return (
    <div>
      {state === 'loading' && (
        <div className="flex justify-center py-10 text-brand-700">
          <Spinner label="Loading the secure card form…" />
        </div>
      )}
      {state === 'failed' && (
        <Alert tone="error" title="The card form could not be loaded">
          Check your connection, then reload the page.
        </Alert>
      )}
      <div ref={host} />
    </div>
  );
}
