import { useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck2, Hourglass } from 'lucide-react';
import type { CourseView, EnrolmentResult } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageLoading } from '@web/components/ui/spinner';
import NotFoundPage from '@web/components/not-found-page';
import { declineOffer, enrol } from './api/course-sessions';
import { CourseGate } from './components/course-gate';
import { formatHeldUntil, holdWords, refundPolicy } from '@web/lib/format';
import { EnrolmentBadge, namesList } from './components/session-card';
import { SessionSummary } from './components/session-summary';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

type Session = CourseView['sessions'][number];

/** What happens on a waitlist: a free seat is given at once; a paid one is held for you to pay. */
function waitlistWords(course: CourseView): string {
  return course.priceCents > 0
    ? `Nothing to pay now. When a seat is freed, it is held for the first learner waiting for ${holdWords(course.waitlistHoldMinutes)}: we tell you in the app and by email, and you take it by paying then.`
    : 'When a seat is freed it goes to the first learner waiting, automatically. We will email you if it is yours.';
}

function Done({ course, result }: { course: CourseView; result: EnrolmentResult }) {
  const family = result.enrolments.some((e) => e.learnerName !== null);
  const waitlisted = family ? result.enrolments.every((e) => e.status === 'waitlisted') : result.enrolment.status === 'waitlisted';
  if (family) {
    const anyWaiting = result.enrolments.some((e) => e.status === 'waitlisted');
    return (
      <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm" role="status">
        {waitlisted ? (
          <Hourglass className="mx-auto h-12 w-12 text-amber-600" aria-hidden="true" />
        ) : (
          <CalendarCheck2 className="mx-auto h-12 w-12 text-emerald-600" aria-hidden="true" />
        )}
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{waitlisted ? 'On the waitlist' : 'Enrolment confirmed'}</h1>
        <p className="mx-auto mt-2 max-w-md text-slate-700">{result.message}.</p>
        <p className="mx-auto mt-2 max-w-md text-slate-600">
          {anyWaiting ? waitlistWords(course) : 'The class times are on your dashboard, each saying whom it is for.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink to={paths.dashboard}>Go to your dashboard</ButtonLink>
          <ButtonLink to={paths.course(course.id)} variant="secondary">
            Back to the course
          </ButtonLink>
        </div>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm" role="status">
      {waitlisted ? (
        <Hourglass className="mx-auto h-12 w-12 text-amber-600" aria-hidden="true" />
      ) : (
        <CalendarCheck2 className="mx-auto h-12 w-12 text-emerald-600" aria-hidden="true" />
      )}
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
        {waitlisted ? `You're on the waitlist (#${result.enrolment.waitlistPosition ?? '?'})` : "You're enrolled"}
      </h1>
      <p className="mx-auto mt-2 max-w-md text-slate-600">
        {waitlisted ? (
          waitlistWords(course)
        ) : (
          <>See you in class! Your class times are on your dashboard, and you can add them to your calendar from there.</>
        )}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.dashboard}>Go to your dashboard</ButtonLink>
        <ButtonLink to={paths.course(course.id)} variant="secondary">
          Back to the course
        </ButtonLink>
      </div>
    </div>
  );
}

/** The ages a course is for, as the chooser says them: "8-12", "8 and up", "up to 12". */
function agesLabel(course: CourseView): string {
  const { minAge, maxAge } = course;
  if (minAge != null && maxAge != null) return minAge === maxAge ? `${minAge}` : `${minAge}-${maxAge}`;
  return minAge != null ? `${minAge} and up` : `up to ${maxAge}`;
}

interface Choice {
  id: string;
  label: string;
  detail: string | null;
  /** Why it cannot be chosen (already enrolled, not within the ages); null: it can. */
  reason: string | null;
}

/** Family accounts (ADR 0074): the account holder and each learner profile, with what stops them. */
function choicesOf(course: CourseView, session: Session): Choice[] {
  const seats = new Map((session.learnerEnrolments ?? []).map((e) => [e.learnerProfileId, e]));
  const taken = (status: string | undefined) =>
    !status ? null : status === 'waitlisted' ? 'on the waitlist already' : status === 'offered' ? 'a seat is held' : 'enrolled already';
  return [
    { id: 'me', label: 'You', detail: null, reason: taken(session.myEnrolment?.status) },
    ...(course.myLearners ?? []).map((l) => {
      const age = l.ageMin === l.ageMax ? `age ${l.ageMin}` : `ages ${l.ageMin}-${l.ageMax}`;
      return {
        id: l.id,
        label: l.firstName,
        detail: age,
        reason: taken(seats.get(l.id)?.status) ?? (l.fitsAges ? null : `this course is for ages ${agesLabel(course)}`),
      };
    }),
  ];
}

/** "Who is this for?": checkboxes, the ones that cannot be chosen disabled with the reason. */
function WhoFor({ choices, chosen, onChange }: { choices: Choice[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">Who is this for?</legend>
      <ul className="mt-1 space-y-2">
        {choices.map((c) => {
          const id = `who-${c.id}`;
          return (
            <li key={c.id} className="flex items-start gap-3">
              <input
                id={id}
                type="checkbox"
                className="mt-1 h-4 w-4 rounded border-slate-300 text-brand-700 focus:ring-brand-600 disabled:opacity-50"
                checked={chosen.includes(c.id)}
                disabled={!!c.reason}
                aria-describedby={c.reason || c.detail ? `${id}-note` : undefined}
                onChange={(e) => onChange(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))}
              />
              <label htmlFor={id} className={`text-sm ${c.reason ? 'text-slate-500' : 'text-slate-900'}`}>
                <span className="font-medium">{c.label}</span>
                {(c.detail || c.reason) && (
                  <span id={`${id}-note`} className="block text-slate-600">
                    {[c.detail, c.reason].filter(Boolean).join(' · ')}
                  </span>
                )}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function Enrol({ course, session }: { course: CourseView; session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [result, setResult] = useState<EnrolmentResult | null>(null);
  const family = (course.myLearners ?? []).length > 0;
  const choices = family ? choicesOf(course, session) : [];
  const [chosen, setChosen] = useState<string[]>([]);
  // Kept in the order shown: seats go in that order when fewer are left.
  const picked = choices.filter((c) => chosen.includes(c.id) && !c.reason);
  const mutation = useMutation({
    mutationFn: () => enrol(course.id, session.id, family ? picked.map((c) => c.id) : undefined),
    onSuccess: async (r) => {
      if (r.next) {
        navigate(r.next);
        return;
      }
      setResult(r);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
        queryClient.invalidateQueries({ queryKey: queryKeys.courseLists }),
      ]);
    },
  });

  if (result) return <Done course={course} result={result} />;

  const paid = course.priceCents > 0;
  const full = session.seatsLeft === 0 || session.status === 'full';
  const closed = session.status === 'completed' || session.status === 'cancelled';
  const error = mutation.error;
  const policy = refundPolicy(course.refundPolicy);

  let blocker: ReactNode = null;
  if (course.isOwner)
    blocker = (
      <Alert tone="info" title="This is your course">
        Educators cannot enrol in their own courses. Learners see this page when they enrol.
      </Alert>
    );
  else if (session.myEnrolment?.status === 'offered') {
    return <Offer course={course} session={session} />;
  } else if (family && !closed && choices.every((c) => c.reason)) {
    blocker = (
      <Alert tone="info" title="Nobody left to enrol">
        Everyone on your account is enrolled or waiting in this session, or outside the course's ages.
      </Alert>
    );
  } else if (session.myEnrolment && !family) {
    blocker = (
      <Alert
        tone="info"
        title={
          session.myEnrolment.status === 'waitlisted'
            ? 'You are already on the waitlist of this session'
            : 'You are already enrolled in this session'
        }
      >
        <span className="mt-1 flex flex-wrap items-center gap-2">
          <EnrolmentBadge enrolment={session.myEnrolment} />
          <Link to={paths.drop(course.id, session.id)} className="font-semibold underline">
            Drop this session
          </Link>
        </span>
      </Alert>
    );
  } else if (closed)
    blocker = (
      <Alert tone="error" title={session.status === 'cancelled' ? 'This session has been cancelled' : 'This session has already ended'}>
        Choose another session of this course.
      </Alert>
    );
  else if (course.status !== 'published')
    blocker = (
      <Alert tone="error" title="This course is not open for enrolment">
        It has not been published.
      </Alert>
    );

  // A paid seat is bought on one page: the checkout (order summary, how to pay, card form).
  if (paid && !full && !blocker && !family) return <Navigate to={paths.checkout(course.id, session.id)} replace />;
  const short = family && !full && picked.length > session.seatsLeft;
  const seatsNote = `${session.seatsLeft} seat${session.seatsLeft === 1 ? '' : 's'} left`;

  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {full ? 'Join the waitlist' : 'Confirm your enrolment'}
      </h1>
      <p className="mt-1 text-slate-600">Check the dates and class times before you confirm.</p>
      <div className="mt-6 space-y-4">
        <SessionSummary course={course} session={session} />
        {blocker}
        {family && !blocker && (
          <>
            <WhoFor choices={choices} chosen={chosen} onChange={setChosen} />
            <p className="text-sm text-slate-700">
              {full ? 'No seats left: everyone you choose joins the waitlist, in this order.' : `${seatsNote} in this session.`}
            </p>
            {short && (
              <Alert title={`Only ${seatsNote}`}>
                {paid
                  ? `Choose at most ${session.seatsLeft}: a paid seat is bought for each learner you choose.`
                  : `${namesList(picked.slice(0, session.seatsLeft).map((c) => c.label))} ${session.seatsLeft === 1 && picked[0]?.id !== 'me' ? 'gets' : 'get'} ${session.seatsLeft === 1 ? 'it' : 'them'}; ${namesList(picked.slice(session.seatsLeft).map((c) => c.label))} ${picked.length - session.seatsLeft === 1 && picked[picked.length - 1]?.id !== 'me' ? 'joins' : 'join'} the waitlist.`}
              </Alert>
            )}
          </>
        )}
        {!blocker && full && (
          <Alert title="This session is full">
            {paid
              ? `Join the waitlist: ${waitlistWords(course).charAt(0).toLowerCase()}${waitlistWords(course).slice(1)}`
              : 'Join the waitlist: the first seat that is freed goes to the first learner waiting, automatically, and we email you.'}
          </Alert>
        )}
        {!blocker && paid && !full && (
          <p className="text-sm text-slate-600">
            You pay on the next page{course.installments ? `, at once or in ${course.installments} monthly installments` : ''}.{' '}
            {policy.label} refunds: {policy.text}
          </p>
        )}
        {error && (
          <Alert tone="error" title="You could not enrol">
            {error instanceof ApiError ? error.message : 'Please try again.'}
            {error instanceof ApiError && error.status === 409 && (
              <>
                {' '}
                <Link to={paths.course(course.id)} className="font-semibold underline">
                  See your sessions
                </Link>
              </>
            )}
          </Alert>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <ButtonLink to={paths.course(course.id)} variant="secondary">
            {blocker ? 'Back to the course' : 'Cancel'}
          </ButtonLink>
          {!blocker && (
            <Button
              onClick={() => mutation.mutate()}
              loading={mutation.isPending}
              disabled={family && (picked.length === 0 || (paid && short))}
            >
              {full ? 'Join the waitlist' : paid ? 'Continue to payment' : 'Confirm enrolment'}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A seat offered from a paid session's waitlist: pay for it (the checkout) or let it go to the next. */
function Offer({ course, session }: { course: CourseView; session: Session }) {
  const queryClient = useQueryClient();
  const [declined, setDeclined] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: () => declineOffer(course.id, session.id),
    onSuccess: async (r) => {
      setDeclined(r.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
  const until = session.myEnrolment?.offerExpiresAt;
  if (session.myEnrolment?.offerEnded)
    return (
      <div className="mx-auto max-w-2xl space-y-4" role="status">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Your offer of a seat has ended</h1>
        <p className="text-slate-600">It was not paid for in time, so the seat goes to the next learner waiting.</p>
        <ButtonLink to={paths.course(course.id)} variant="secondary">
          Back to the course
        </ButtonLink>
      </div>
    );
  if (declined)
    return (
      <div className="mx-auto max-w-2xl space-y-4" role="status">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">You declined the seat</h1>
        <p className="text-slate-600">{declined}.</p>
        <ButtonLink to={paths.course(course.id)} variant="secondary">
          Back to the course
        </ButtonLink>
      </div>
    );
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">A seat is held for you</h1>
      <p className="mt-1 text-slate-600">
        A seat opened up and you were first on the waitlist. It is yours if you pay for it
        {until ? ` by ${formatHeldUntil(until)}` : ' in time'}; after that it goes to the next learner waiting.
      </p>
      <div className="mt-6 space-y-4">
        <SessionSummary course={course} session={session} />
        {mutation.error && (
          <Alert tone="error" title="The seat could not be declined">
            {mutation.error instanceof ApiError ? mutation.error.message : 'Please try again.'}
          </Alert>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => mutation.mutate()} loading={mutation.isPending}>
            Decline the seat
          </Button>
          <ButtonLink to={paths.checkout(course.id, session.id)}>Continue to payment</ButtonLink>
        </div>
      </div>
    </div>
  );
}

export default function EnrolPage() {
  const { courseID, sessionID } = useParams();
  return (
    <CourseGate id={courseID} loading={<PageLoading label="Loading the session…" />}>
      {(course) => {
        const session = course.sessions.find((s) => s.id === sessionID);
        return session ? <Enrol course={course} session={session} /> : <NotFoundPage />;
      }}
    </CourseGate>
  );
}
