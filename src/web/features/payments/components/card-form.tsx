import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Lock } from 'lucide-react';
import type { CheckoutResult } from '@shared/payments-schemas';
import { Alert } from '@web/components/ui/alert';
import { Spinner } from '@web/components/ui/spinner';
import type { PaymentsConfig } from '../api/checkout';

const StripeEmbedded = lazy(() => import('./stripe-embedded'));

/**
 * Where the card is typed: Stripe's Embedded Checkout, or in sandbox mode the sandbox's
 * own form in a frame. Either one sends the whole window to the return page when paid.
 */
export function CardForm({ config, checkout }: { config: PaymentsConfig; checkout: CheckoutResult }) {
  const [loaded, setLoaded] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  // The sandbox's form is served by this app (same origin): the frame takes its content's height.
  const fitToContent = () => {
    setLoaded(true);
    try {
      const doc = frame.current?.contentDocument;
      if (!doc?.body) return;
      const fit = () => setHeight(Math.ceil(doc.body.getBoundingClientRect().height) + 2);
      fit();
      observer.current?.disconnect();
      observer.current = new ResizeObserver(fit);
      observer.current.observe(doc.body);
    } catch {
      // Another origin: keep the fixed height.
    }
  };
  return (
    <div>
      <p className="mb-3 flex items-center gap-2 text-sm text-slate-600">
        <Lock className="h-4 w-4 shrink-0 text-emerald-700" aria-hidden="true" /> Your card details go straight to the payment provider;
        Agora never sees them.
      </p>
      {config.mode === 'sandbox' ? (
        checkout.sandboxUrl ? (
          <div className="relative">
            {!loaded && (
              <div className="absolute inset-x-0 top-10 flex justify-center text-brand-700">
                <Spinner label="Loading the secure card form…" />
              </div>
            )}
            <iframe
              ref={frame}
              title="Secure card payment"
              src={checkout.sandboxUrl}
              onLoad={fitToContent}
              style={height ? { height } : undefined}
              className="block h-[640px] w-full rounded-xl border border-slate-200 bg-white"
            />
          </div>
        ) : (
          <Alert tone="error" title="The card form could not be opened">
            The payment sandbox gave no form address. Please try again.
          </Alert>
        )
      ) : (
        <Suspense
          fallback={
            <div className="flex justify-center py-10 text-brand-700">
              <Spinner label="Loading the secure card form…" />
            </div>
          }
        >
          <StripeEmbedded publishableKey={config.publishableKey} clientSecret={checkout.clientSecret} />
        </Suspense>
      )}
    </div>
  );
}
