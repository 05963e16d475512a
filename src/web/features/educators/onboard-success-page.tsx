import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, BadgeCheck, Hourglass } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { PageLoading } from '@web/components/ui/spinner';
import { useViewer } from '@web/lib/viewer';
import { EducatorOnly } from '@web/components/educator-only';
import { payoutsQuery } from './api/payouts';
import { OnboardingButton, PayoutFlags, payoutsReady } from './components/payouts';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

function OnboardSuccess() {
  const me = useViewer();
  const queryClient = useQueryClient();
  // Back from the provider's onboarding: read the account from the provider, not our copy.
  const { data, error, refetch, isFetching } = useQuery({ ...payoutsQuery(true), staleTime: 0, gcTime: 0 });
  useEffect(() => {
    if (!data) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.me });
    void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.payoutsFrom('stored') });
  }, [data, me.id, queryClient]);

  if (error && !data) {
    return (
      <div className="mx-auto max-w-2xl space-y-4">
        <PageHeader title="Payouts" />
        <Alert tone="error" title="Your payout account could not be read">
          {error instanceof ApiError ? error.message : 'Please try again.'}
        </Alert>
        <Button variant="secondary" onClick={() => void refetch()} loading={isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  if (!data) return <PageLoading label="Checking your payout account…" />;

  const account = data.account;
  const ready = payoutsReady(account);
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title={ready ? 'Payouts are set up' : account ? 'Onboarding is not finished' : 'Set up payouts'}
        subtitle={
          ready
            ? 'Learners can pay for your courses, and the money reaches your bank.'
            : 'Stripe needs a few more details before you can take payments.'
        }
      />
      <div className="space-y-6">
        <section aria-labelledby="account-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="account-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            {ready ? (
              <BadgeCheck className="h-6 w-6 text-emerald-600" aria-hidden="true" />
            ) : (
              <Hourglass className="h-6 w-6 text-amber-600" aria-hidden="true" />
            )}
            Your payout account
          </h2>
          <div className="mt-4">
            {account ? <PayoutFlags account={account} /> : <p className="text-sm text-slate-600">You have no payout account yet.</p>}
          </div>
          {!ready && (
            <div className="mt-5">
              <OnboardingButton me={me} accountId={account?.id} label={account ? 'Finish onboarding' : 'Set up payouts'} />
            </div>
          )}
        </section>

        <section
          aria-labelledby="next-heading"
          className="rounded-2xl border border-brand-100 bg-gradient-to-br from-brand-50 to-white p-6 shadow-sm"
        >
          <h2 id="next-heading" className="text-lg font-semibold text-slate-900">
            Next steps
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {ready ? (
              <>
                <li>Set a price on a course and publish it: learners can pay at once or in installments.</li>
                <li>Follow your sales, fees and payouts on your educator dashboard.</li>
              </>
            ) : (
              <>
                <li>Finish Stripe's onboarding; it takes a few minutes and can be resumed any time.</li>
                <li>Meanwhile you can publish free courses, and prepare paid ones as drafts.</li>
              </>
            )}
          </ul>
          <div className="mt-4 flex flex-wrap gap-3">
            <ButtonLink to={paths.educatorDashboard} variant={ready ? 'primary' : 'secondary'}>
              Educator dashboard <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </ButtonLink>
            <ButtonLink to={paths.newCourse} variant="secondary">
              Create a course
            </ButtonLink>
          </div>
        </section>
      </div>
    </div>
  );
}

/** /educator/onboard-success — where Stripe's onboarding returns: the account's state now. */
export default function OnboardSuccessPage() {
  return (
    <EducatorOnly>
      <OnboardSuccess />
    </EducatorOnly>
  );
}
