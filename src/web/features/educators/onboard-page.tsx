import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, BookOpenCheck, Check, CreditCard, Eye, LayoutDashboard, Pencil, Sparkles } from 'lucide-react';
import type { CurrentUser } from '@shared/accounts';
import type { EducatorPayouts } from '@shared/payments-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { useViewer } from '@web/lib/viewer';
import { Skeleton } from '@web/components/ui/skeleton';
import { uploadWithProgress } from '@web/components/ui/upload';
import { payoutsQuery } from './api/payouts';
import { OnboardingButton, PayoutFlags, payoutsReady } from './components/payouts';
import { becomeEducator, educatorQuery, photoUploadUrl } from './api/educators';
import { EducatorForm, PhotoInput } from './educator-form';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

type PayoutStep = 'locked' | 'todo' | 'unfinished' | 'done';

/** /educator/onboard — step 1 creates the educator profile; step 2 sets up payouts (Stripe Connect). */
export default function OnboardPage() {
  const me = useViewer();
  const [joined, setJoined] = useState<{ photoError: string | null } | null>(null);
  const payouts = useQuery({ ...payoutsQuery(), enabled: !!me.educator });
  const account = payouts.data?.account;
  const payoutStep: PayoutStep = !me.educator ? 'locked' : payoutsReady(account ?? null) ? 'done' : account ? 'unfinished' : 'todo';
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={me.educator ? (joined ? 'Welcome, educator!' : 'You are an educator') : 'Become an educator'}
        subtitle={
          me.educator
            ? 'Your educator profile is set up.'
            : 'Teach live classes on Agora: set up your profile, then create your first course.'
        }
      />
      <OnboardingSteps profileDone={!!me.educator} payouts={payoutStep} />
      {me.educator ? <EducatorStatus me={me} joined={joined} payouts={payouts} /> : <ProfileStep me={me} onJoined={setJoined} />}
    </div>
  );
}

const PAYOUT_TEXT: Record<PayoutStep, string> = {
  locked: 'Get paid for paid courses. Free courses need no payouts.',
  todo: 'Connect a bank account to sell paid courses',
  unfinished: 'Stripe needs a few more details',
  done: 'Done',
};

function OnboardingSteps({ profileDone, payouts }: { profileDone: boolean; payouts: PayoutStep }) {
  const payoutsDone = payouts === 'done';
  const payoutsCurrent = payouts === 'todo' || payouts === 'unfinished';
  return (
    <ol aria-label="Onboarding steps" className="mb-6 grid gap-3 sm:grid-cols-2">
      <li
        aria-current={profileDone ? undefined : 'step'}
        className={`flex items-center gap-3 rounded-xl border p-3 ${profileDone ? 'border-emerald-200 bg-emerald-50' : 'border-brand-600 bg-brand-50'}`}
      >
        <span
          className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold text-white ${profileDone ? 'bg-emerald-600' : 'bg-brand-700'}`}
        >
          {profileDone ? <Check className="h-4 w-4" aria-hidden="true" /> : '1'}
        </span>
        <span>
          <span className="block text-sm font-semibold text-slate-900">Profile</span>
          <span className="block text-xs text-slate-700">{profileDone ? 'Done' : 'Bio, photo and subjects'}</span>
        </span>
      </li>
      <li
        aria-current={payoutsCurrent ? 'step' : undefined}
        aria-disabled={payouts === 'locked' || undefined}
        className={`flex items-center gap-3 rounded-xl border p-3 ${payoutsDone ? 'border-emerald-200 bg-emerald-50' : payoutsCurrent ? 'border-brand-600 bg-brand-50' : 'border-dashed border-slate-300 bg-white text-slate-600'}`}
      >
        <span
          className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${payoutsDone ? 'bg-emerald-600 text-white' : payoutsCurrent ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700'}`}
        >
          {payoutsDone ? <Check className="h-4 w-4" aria-hidden="true" /> : '2'}
        </span>
        <span>
          <span className={`block text-sm font-semibold ${payouts === 'locked' ? 'text-slate-700' : 'text-slate-900'}`}>
            Set up payouts
          </span>
          <span className={`block text-xs ${payouts === 'locked' ? '' : 'text-slate-700'}`}>{PAYOUT_TEXT[payouts]}</span>
        </span>
      </li>
    </ol>
  );
}

function ProfileStep({ me, onJoined }: { me: CurrentUser; onJoined: (j: { photoError: string | null }) => void }) {
  const queryClient = useQueryClient();
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  return (
    <>
      <EducatorForm
        submitLabel="Create my educator profile"
        photo={<PhotoInput current={me.profileImage} file={photo} onFile={setPhoto} />}
        onSubmit={async (values) => {
          await becomeEducator(values);
          let photoError: string | null = null;
          if (photo) {
            setProgress(0);
            try {
              await uploadWithProgress(photoUploadUrl(me.id), photo, setProgress);
            } catch (err) {
              photoError = err instanceof ApiError ? err.message : 'The photo could not be uploaded';
            } finally {
              setProgress(null);
            }
          }
          onJoined({ photoError });
          await queryClient.invalidateQueries({ queryKey: queryKeys.me });
          void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
        }}
        footer={progress !== null && <span className="text-sm text-slate-600">Uploading your photo… {Math.round(progress * 100)}%</span>}
      />
      <p className="mt-6 text-sm text-slate-600">
        Curious about fees and payouts first? Read{' '}
        <Link to={paths.educatorBenefits} className="font-semibold text-brand-700 hover:underline">
          Teaching on Agora
        </Link>
        .
      </p>
    </>
  );
}

type PayoutsResult = ReturnType<typeof useQuery<EducatorPayouts>>;

/** Step 2: the Connect account's state, and the button that (re)opens Stripe's onboarding. */
function PayoutsStep({ me, payouts }: { me: CurrentUser; payouts: PayoutsResult }) {
  const account = payouts.data?.account ?? null;
  const ready = payoutsReady(account);
  // Stripe sends the educator back here (?step=payouts) when an onboarding link expired or
  // was left before the end: say so and take them to this step.
  const [params] = useSearchParams();
  const returned = params.get('step') === 'payouts' && !ready;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (returned && !payouts.isPending) {
      heading.current?.scrollIntoView({ block: 'start' });
      heading.current?.focus();
    }
  }, [returned, payouts.isPending]);
  return (
    <section
      aria-labelledby="payouts-heading"
      className={`rounded-2xl border p-6 shadow-sm ${ready ? 'border-emerald-200 bg-white' : 'border-brand-100 bg-gradient-to-br from-brand-50 to-white'}`}
    >
      <CreditCard className={`h-8 w-8 ${ready ? 'text-emerald-600' : 'text-brand-700'}`} aria-hidden="true" />
      <h2 id="payouts-heading" ref={heading} tabIndex={-1} className="mt-3 text-xl font-bold text-slate-900 outline-none">
        {ready ? 'Payouts are set up' : account ? 'Finish setting up payouts' : 'Set up payouts'}
      </h2>
      <p className="mt-1 text-slate-700">
        {ready
          ? 'Learners can pay for your courses; Stripe pays the money out to your bank, less the platform fee.'
          : 'To sell paid courses, connect a bank account through Stripe. It takes a few minutes; Agora never sees your bank details.'}
      </p>
      {returned && (
        <p role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Your payout set-up was interrupted or its link expired. Continue where you left off: nothing you entered is lost.
        </p>
      )}
      {payouts.isPending ? (
        <div className="mt-4 space-y-2" aria-hidden="true">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-5 w-1/3" />
        </div>
      ) : (
        <>
          {account && (
            <div className="mt-4">
              <PayoutFlags account={account} />
            </div>
          )}
          {payouts.error && <p className="mt-3 text-sm text-red-700">The state of your payout account could not be read.</p>}
          <div className="mt-4 flex flex-wrap gap-3">
            {ready ? (
              <ButtonLink to={paths.educatorDashboard} variant="secondary">
                <LayoutDashboard className="h-4 w-4" aria-hidden="true" /> Educator dashboard
              </ButtonLink>
            ) : (
              <OnboardingButton me={me} accountId={account?.id} label={account ? 'Continue onboarding' : 'Set up payouts'} />
            )}
          </div>
        </>
      )}
      <p className="mt-4 text-sm text-slate-600">
        Fees and payouts, explained:{' '}
        <Link to={paths.educatorBenefits} className="font-semibold text-brand-700 hover:underline">
          Teaching on Agora
        </Link>
        .
      </p>
    </section>
  );
}

function EducatorStatus({
  me,
  joined,
  payouts,
}: {
  me: CurrentUser;
  joined: { photoError: string | null } | null;
  payouts: PayoutsResult;
}) {
  const { data: profile, isPending } = useQuery(educatorQuery(me.id));
  const account = payouts.data?.account ?? null;
  const courses = profile?.courses ?? [];
  const first = courses.length === 0;
  return (
    <div className="space-y-6">
      {joined && (
        <Alert tone="success" title="Your educator profile is ready">
          Learners can now find you. Next: create your first course.
        </Alert>
      )}
      {joined?.photoError && (
        <Alert tone="error" title="Your photo was not uploaded">
          {joined.photoError} You can add it on your profile’s edit page.
        </Alert>
      )}

      <PayoutsStep me={me} payouts={payouts} />

      <section
        aria-labelledby="next-heading"
        className="rounded-2xl border border-brand-100 bg-gradient-to-br from-brand-50 to-white p-6 shadow-sm"
      >
        <Sparkles className="h-8 w-8 text-brand-700" aria-hidden="true" />
        <h2 id="next-heading" className="mt-3 text-xl font-bold text-slate-900">
          {first ? 'Create your first course' : 'Create another course'}
        </h2>
        <p className="mt-1 text-slate-700">
          Describe it, add a session with its class times, and publish. Free courses can take enrolments right away; paid ones once payouts
          are set up.
        </p>
        <ButtonLink to={paths.newCourse} className="mt-4">
          {first ? 'Create your first course' : 'New course'} <ArrowRight className="h-4 w-4" aria-hidden="true" />
        </ButtonLink>
      </section>

      <section aria-labelledby="status-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="status-heading" className="text-lg font-semibold text-slate-900">
          Your status
        </h2>
        {isPending ? (
          <div className="mt-4 space-y-2" aria-hidden="true">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : (
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex items-start gap-3">
              <Check className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
              <span>
                <span className="font-medium text-slate-900">Educator profile</span> — {profile?.headline ?? 'set up'}
              </span>
            </li>
            <li className="flex items-start gap-3">
              <BookOpenCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
              <span>
                <span className="font-medium text-slate-900">Courses</span> —{' '}
                {courses.length === 0
                  ? 'none yet'
                  : `${courses.filter((c) => c.status === 'published').length} published, ${courses.filter((c) => c.status === 'draft').length} draft`}
              </span>
            </li>
            <li className="flex items-start gap-3">
              <CreditCard className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
              <span>
                <span className="font-medium text-slate-900">Payouts</span> —{' '}
                {payoutsReady(account) ? 'ready' : account ? 'onboarding not finished' : 'not set up yet (needed for paid courses)'}
              </span>
            </li>
          </ul>
        )}
        <div className="mt-5 flex flex-wrap gap-2">
          <ButtonLink to={paths.educator(me.id)} variant="secondary">
            <Eye className="h-4 w-4" aria-hidden="true" /> View your public profile
          </ButtonLink>
          <ButtonLink to={paths.editEducator(me.id)} variant="secondary">
            <Pencil className="h-4 w-4" aria-hidden="true" /> Edit profile
          </ButtonLink>
        </div>
      </section>
    </div>
  );
}
