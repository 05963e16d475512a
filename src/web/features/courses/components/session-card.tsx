import { Link } from 'react-router';
import { CalendarDays, Clock, Users } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { ButtonLink } from '@web/components/ui/button';
import { Badge, type BadgeTone } from '@web/components/ui/badge';
import { formatDateRange, formatHeldUntil, plural } from '@web/lib/format';
import { formatClassTime } from '@shared/time';
import { paths } from '@web/lib/paths';
import { ClassTimeDetails } from '@web/components/class-time-details';

type Session = CourseView['sessions'][number];
type ClassTime = Session['classTimes'][number];
type Learner = NonNullable<CourseView['myLearners']>[number];
type LearnerSeat = NonNullable<Session['learnerEnrolments']>[number];

const STATUS: Record<Session['status'], { label: string; tone: BadgeTone }> = {
  scheduled: { label: 'Open', tone: 'green' },
  full: { label: 'Full', tone: 'amber' },
  running: { label: 'In progress', tone: 'brand' },
  completed: { label: 'Ended', tone: 'slate' },
  cancelled: { label: 'Cancelled', tone: 'red' },
};

/** The viewer's own enrolment, as a badge: "Enrolled", "Waitlisted #2"… */
export function EnrolmentBadge({ enrolment }: { enrolment: NonNullable<Session['myEnrolment']> }) {
  switch (enrolment.status) {
    case 'active':
      return <Badge tone="green">You're enrolled</Badge>;
    case 'waitlisted':
      return <Badge tone="amber">Waitlisted{enrolment.waitlistPosition ? ` #${enrolment.waitlistPosition}` : ''}</Badge>;
    case 'offered':
      if (enrolment.offerEnded) return <Badge tone="slate">Your offer of a seat has ended</Badge>;
      return (
        <Badge tone="brand">Seat held for you{enrolment.offerExpiresAt ? ` until ${formatHeldUntil(enrolment.offerExpiresAt)}` : ''}</Badge>
      );
    case 'pending_payment':
      return <Badge tone="amber">Payment pending</Badge>;
    case 'completed':
      return <Badge>Completed</Badge>;
    default:
      return null;
  }
}

/** A learner profile's seat (family accounts), as a badge: "Mia: enrolled", "Leo: waitlisted #1"… */
function LearnerSeatBadge({ seat }: { seat: LearnerSeat }) {
  const name = seat.firstName;
  switch (seat.status) {
    case 'active':
    case 'past_due':
      return <Badge tone="green">{name}: enrolled</Badge>;
    case 'waitlisted':
      return <Badge tone="amber">{`${name}: waitlisted${seat.waitlistPosition ? ` #${seat.waitlistPosition}` : ''}`}</Badge>;
    case 'offered':
      if (seat.offerEnded) return <Badge tone="slate">{`${name}: the offer of a seat has ended`}</Badge>;
      return (
        <Badge tone="brand">{`${name}: seat held${seat.offerExpiresAt ? ` until ${formatHeldUntil(seat.offerExpiresAt)}` : ''}`}</Badge>
      );
    case 'pending_payment':
      return <Badge tone="amber">{name}: payment pending</Badge>;
    case 'completed':
      return <Badge>{name}: completed</Badge>;
    default:
      return null;
  }
}

/** "Mia", "Mia and Leo", "Mia, Leo and Sam". */
export function namesList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Family accounts (ADR 0074): the seats of the viewer's learners in this session, each with its
 * own Drop, and "Enrol Leo too" for those who fit the course's ages and have no seat yet.
 */
function LearnerSeats({
  courseId,
  session,
  learners,
  dates,
  open,
}: {
  courseId: string;
  session: Session;
  learners: Learner[];
  dates: string;
  open: boolean;
}) {
  const seats = session.learnerEnrolments ?? [];
  const seated = new Set(seats.map((s) => s.learnerProfileId));
  const others = [...learners.filter((l) => !seated.has(l.id) && l.fitsAges).map((l) => l.firstName)];
  if (!session.myEnrolment) others.push('yourself');
  const anySeat = seats.length > 0 || !!session.myEnrolment;
  if (!seats.length && !(anySeat && open && others.length)) return null;
  return (
    <div className="mt-3 flex flex-col gap-2 border-t border-slate-100 pt-3" aria-label="Your learners in this session">
      {seats.map((seat) => (
        <p key={seat.id} className="flex flex-wrap items-center gap-2 text-sm">
          <LearnerSeatBadge seat={seat} />
          {seat.status !== 'completed' && !seat.offerEnded && (
            <Link to={paths.drop(courseId, session.id, seat.learnerProfileId)} className="font-semibold text-brand-700 hover:underline">
              Drop {seat.firstName}
              <span className="sr-only"> from the session of {dates}</span>
            </Link>
          )}
        </p>
      ))}
      {anySeat && open && others.length > 0 && (
        <p className="text-sm">
          <Link to={paths.enrol(courseId, session.id)} className="font-semibold text-brand-700 hover:underline">
            Enrol {namesList(others)} too<span className="sr-only"> in the session of {dates}</span>
          </Link>
        </p>
      )}
    </div>
  );
}

function ClassTimeRow({ t, viewerZone, sessionZone }: { t: ClassTime; viewerZone: string; sessionZone: string }) {
  return (
    <li className="flex gap-3 py-2">
      <Clock className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900">{formatClassTime(t.startsAt, t.endsAt, viewerZone)}</p>
        <ClassTimeDetails classTime={t} viewerZone={viewerZone} zone={sessionZone} zoneNote=", the session's time zone" />
      </div>
    </li>
  );
}

/** The class times of a session in the viewer's zone; long series fold after the first few. */
export function ClassTimeList({
  times,
  viewerZone,
  sessionZone,
  visible = 4,
}: {
  times: ClassTime[];
  viewerZone: string;
  sessionZone: string;
  visible?: number;
}) {
  if (!times.length) return <p className="text-sm text-slate-600">Class times will be announced soon.</p>;
  const head = times.slice(0, visible);
  const rest = times.slice(visible);
  return (
    <div>
      <ul className="divide-y divide-slate-100" aria-label="Class times">
        {head.map((t) => (
          <ClassTimeRow key={t.id} t={t} viewerZone={viewerZone} sessionZone={sessionZone} />
        ))}
      </ul>
      {rest.length > 0 && (
        <details className="group">
          <summary className="cursor-pointer py-1 text-sm font-semibold text-brand-700 hover:underline">
            <span className="group-open:hidden">Show {plural(rest.length, 'more class time')}</span>
            <span className="hidden group-open:inline">Show fewer</span>
          </summary>
          <ul className="divide-y divide-slate-100">
            {rest.map((t) => (
              <ClassTimeRow key={t.id} t={t} viewerZone={viewerZone} sessionZone={sessionZone} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** One run of the course: dates, seats, class times, and what the viewer can do. */
export function SessionCard({
  courseId,
  session,
  isOwner,
  viewerZone,
  paid = false,
  learners = [],
}: {
  courseId: string;
  session: Session;
  isOwner: boolean;
  viewerZone: string;
  /** A paid course: Enrol opens the one checkout page (order, how to pay, card). */
  paid?: boolean;
  /** The viewer's learner profiles (family accounts): Enrol asks whom for first. */
  learners?: Learner[];
}) {
  const status = STATUS[session.status];
  const dates = formatDateRange(session.startsOn, session.endsOn);
  const mine = session.myEnrolment;
  const closed = session.status === 'completed' || session.status === 'cancelled';
  const family = learners.length > 0;
  // A learner of the account holds a seat: the learners' lines below say who and offer the others.
  const learnersSeated = (session.learnerEnrolments ?? []).length > 0;
  return (
    <article className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={`Session ${dates}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="flex items-center gap-2 font-semibold text-slate-900">
            <CalendarDays className="h-4 w-4 text-brand-700" aria-hidden="true" /> {dates}
          </h3>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            <Badge tone={status.tone}>{status.label}</Badge>
            {!closed && (
              <span className="inline-flex items-center gap-1">
                <Users className="h-4 w-4 text-slate-500" aria-hidden="true" />
                {session.seatsLeft > 0 ? `${session.seatsLeft} of ${session.capacity} seats left` : `All ${session.capacity} seats taken`}
                {session.waitlisted > 0 && ` · ${session.waitlisted} waiting`}
              </span>
            )}
            <span className="inline-flex items-center gap-1 text-slate-600">
              <Clock className="h-4 w-4 text-slate-500" aria-hidden="true" />
              {plural(session.classTimes.length, 'class', 'classes')}
            </span>
          </p>
          {session.minToRun > 1 && !closed && (
            <p className="mt-1 text-xs text-slate-600">Runs with at least {session.minToRun} learners.</p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {mine && <EnrolmentBadge enrolment={mine} />}
          {(isOwner || mine?.status === 'active') && (
            <ButtonLink to={paths.classroom(courseId, session.id)} variant="secondary" className="py-2">
              Classroom<span className="sr-only"> of the session of {dates}</span>
            </ButtonLink>
          )}
          {isOwner || mine?.offerEnded ? null : mine?.status === 'offered' ? (
            <>
              <ButtonLink to={paths.checkout(courseId, session.id)} className="py-2">
                Claim your seat<span className="sr-only"> in the session of {dates}</span>
              </ButtonLink>
              <ButtonLink to={paths.enrol(courseId, session.id)} variant="secondary" className="py-2">
                Decline<span className="sr-only"> the seat in the session of {dates}</span>
              </ButtonLink>
            </>
          ) : mine ? (
            mine.status !== 'completed' && (
              <ButtonLink to={paths.drop(courseId, session.id)} variant="secondary" className="py-2">
                Drop<span className="sr-only"> the session of {dates}</span>
              </ButtonLink>
            )
          ) : closed || learnersSeated ? null : session.status === 'full' ? (
            <ButtonLink to={paths.enrol(courseId, session.id)} variant="secondary" className="py-2">
              Join the waitlist<span className="sr-only"> for the session of {dates}</span>
            </ButtonLink>
          ) : (
            <ButtonLink to={paid && !family ? paths.checkout(courseId, session.id) : paths.enrol(courseId, session.id)} className="py-2">
              Enrol<span className="sr-only"> in the session of {dates}</span>
            </ButtonLink>
          )}
        </div>
      </div>
      {!isOwner && family && <LearnerSeats courseId={courseId} session={session} learners={learners} dates={dates} open={!closed} />}
      <div className="mt-3 border-t border-slate-100 pt-2">
        <ClassTimeList times={session.classTimes} viewerZone={viewerZone} sessionZone={session.timeZone} />
      </div>
    </article>
  );
}
