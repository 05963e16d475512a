import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CircleAlert, CircleDashed, ExternalLink } from 'lucide-react';
import type { CurrentUser } from '@shared/accounts';
import type { EducatorPayouts } from '@shared/payments-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { createAccountLink, createLoginLink, createPayoutAccount } from '../api/payouts';
import { requirementLabel } from '@web/lib/format';
import { queryKeys } from '@web/lib/query-keys';

type Account = NonNullable<EducatorPayouts['account']>;

/** Payouts are fully set up: the account takes charges and pays out. */
export const payoutsReady = (a: EducatorPayouts['account']) => !!a && a.chargesEnabled && a.payoutsEnabled;

function Flag({ on, label, offText }: { on: boolean; label: string; offText: string }) {
  return (
    <li className="flex items-start gap-2">
      {on ? (
        <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
      ) : (
        <CircleDashed className="mt-0.5 h-5 w-5 shrink-0 text-amber-600" aria-hidden="true" />
      )}
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-slate-600"> — {on ? 'enabled' : offText}</span>
      </span>
    </li>
  );
}

/** Charges and payouts enabled, and what the provider still needs. */
export function PayoutFlags({ account }: { account: Account }) {
  return (
    <div className="space-y-3 text-sm">
      <ul className="space-y-2" aria-label="Payout account status">
        <Flag on={account.chargesEnabled} label="Charges" offText="not yet: learners cannot pay for your courses" />
        <Flag on={account.payoutsEnabled} label="Payouts" offText="not yet: money cannot reach your bank" />
      </ul>
      {account.requirementsDue.length > 0 && (
        <div className="rounded-xl border border-amber-200 bg-amber-50 p-3 text-amber-900">
          <p className="flex items-center gap-2 font-semibold">
            <CircleAlert className="h-4 w-4" aria-hidden="true" /> Stripe still needs
          </p>
          <ul className="mt-1 list-disc pl-6">
            {account.requirementsDue.map((r) => (
              <li key={r}>{requirementLabel(r)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

const STEPS = { account: 'Creating your payout account…', link: 'Opening Stripe onboarding…' } as const;

/**
 * Creates the Connect account when there is none, then an onboarding link, and sends the
 * whole window there (Stripe returns to /educator/onboard-success).
 */
export function useStartOnboarding(me: CurrentUser, accountId: string | null | undefined) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<keyof typeof STEPS | null>(null);
  const mutation = useMutation({
    mutationFn: async () => {
      let id = accountId ?? me.educator?.stripeConnectAccountId ?? null;
      if (!id) {
        setStep('account');
        id = (await createPayoutAccount({ email: me.email, user_id: me.id })).stripe_connect_account_id;
        void queryClient.invalidateQueries({ queryKey: queryKeys.me });
      }
      setStep('link');
      return createAccountLink(id);
    },
    onSuccess: ({ url }) => window.location.assign(url),
    onError: () => setStep(null),
  });
  return {
    start: () => mutation.mutate(),
    pending: mutation.isPending || mutation.isSuccess,
    progress: step ? STEPS[step] : null,
    error: mutation.error,
  };
}

export function OnboardingButton({ me, accountId, label }: { me: CurrentUser; accountId: string | null | undefined; label: string }) {
  const { start, pending, progress, error } = useStartOnboarding(me, accountId);
  return (
    <div className="space-y-3">
      {error && (
        <Alert tone="error" title="Payouts could not be set up">
          {error instanceof ApiError ? error.message : 'Please try again.'}
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={start} loading={pending}>
          {label}
        </Button>
        {pending && progress && (
          <span role="status" className="text-sm text-slate-600">
            {progress}
          </span>
        )}
      </div>
    </div>
  );
}

/** "Open payouts dashboard": a one-time login link to the provider's Express dashboard, in a new tab. */
export function PayoutsDashboardButton({ accountId }: { accountId: string }) {
  const mutation = useMutation({
    mutationFn: async () => {
      // Opened before the request so the browser treats it as the user's click, not a pop-up.
      const tab = window.open('', '_blank');
      try {
        const { url } = await createLoginLink(accountId);
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else window.location.assign(url);
      } catch (err) {
        tab?.close();
        throw err;
      }
    },
  });
  return (
    <div className="space-y-2">
      <Button variant="secondary" onClick={() => mutation.mutate()} loading={mutation.isPending}>
        Open payouts dashboard <ExternalLink className="h-4 w-4" aria-hidden="true" />
      </Button>
      {mutation.error && (
        <Alert tone="error" title="The payouts dashboard could not be opened">
          {mutation.error instanceof ApiError ? mutation.error.message : 'Please try again.'}
        </Alert>
      )}
    </div>
  );
}
