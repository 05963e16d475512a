import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ClipboardCheck, Download, MessageSquare, Users } from 'lucide-react';
import { type CourseView, type RosterRow } from '@shared/courses-schemas';
import { isNotFound } from '@web/lib/api';
import { PageHeader } from '@web/components/ui/card';
import NotFoundPage from '@web/components/not-found-page';
import { rosterCsvUrl, rosterQuery } from './api/roster';
import { Badge } from '@web/components/ui/badge';
import { Select } from '@web/components/ui/inputs';
import { Skeleton } from '@web/components/ui/skeleton';
import { CourseCrumbs, OwnedCourse } from './editor/course-loader';
import { formatDateRange, formatDateTime, formatHeldUntil, plural } from '@web/lib/format';
import { SESSION_STATUS } from './editor/sessions-panel';
import { LoadError } from '@web/components/ui/load-error';
import { paths } from '@web/lib/paths';

/** /course/:courseID/enrollment — the educator's roster per session, with CSV export. */
export default function RosterPage() {
  return <OwnedCourse>{(course) => <Roster course={course} />}</OwnedCourse>;
}

const STATUS: Record<string, { label: string; tone: 'green' | 'amber' | 'slate' | 'brand' | 'red' }> = {
  active: { label: 'Enrolled', tone: 'green' },
  waitlisted: { label: 'Waitlisted', tone: 'amber' },
  offered: { label: 'Offered a seat', tone: 'brand' },
  pending_payment: { label: 'Payment pending', tone: 'brand' },
  completed: { label: 'Completed', tone: 'slate' },
  dropped: { label: 'Dropped', tone: 'red' },
};
const STATUS_ORDER = ['active', 'offered', 'waitlisted', 'pending_payment', 'completed', 'dropped'];

/** A row's status: the place in line of the waitlisted, until when an offered seat is held. */
function StatusBadge({ r }: { r: RosterRow }) {
  const s = STATUS[r.status] ?? { label: r.status, tone: 'slate' as const };
  const label =
    r.status === 'waitlisted' && r.waitlistPosition
      ? `Waitlisted #${r.waitlistPosition}`
      : r.status === 'offered' && r.offerExpiresAt
        ? `Offered a seat until ${formatHeldUntil(r.offerExpiresAt)}`
        : s.label;
  return <Badge tone={s.tone}>{label}</Badge>;
}

function Roster({ course }: { course: CourseView }) {
  const { data, error, refetch, isPending } = useQuery(rosterQuery(course.id));
  const [params, setParams] = useSearchParams();
  const sessionFilter = params.get('session') ?? '';
  const statusFilter = params.get('status') ?? '';
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const rows = useMemo(() => data?.rows ?? [], [data]);
  const sessions = course.sessions;
  const sessionLabel = (id: string) => {
    const s = sessions.find((x) => x.id === id);
    return s ? formatDateRange(s.startsOn, s.endsOn) : 'Session';
  };
  const counts = useMemo(() => {
    const scoped = sessionFilter ? rows.filter((r) => r.sessionId === sessionFilter) : rows;
    const by: Record<string, number> = {};
    for (const r of scoped) by[r.status] = (by[r.status] ?? 0) + 1;
    return by;
  }, [rows, sessionFilter]);
  const filtered = rows.filter((r) => (!sessionFilter || r.sessionId === sessionFilter) && (!statusFilter || r.status === statusFilter));
  const groups = sessions
    .map((s) => ({ session: s, rows: filtered.filter((r) => r.sessionId === s.id) }))
    .filter((g) => !sessionFilter || g.session.id === sessionFilter);

  if (error && !data) {
    if (isNotFound(error)) return <NotFoundPage />;
    return (
      <LoadError
        title="The roster could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }

  return (
    <div className="mx-auto max-w-5xl">
      <CourseCrumbs course={course} here="Roster" />
      <PageHeader
        title="Roster"
        subtitle={
          <>
            Who enrolled in each session of <span className="font-medium text-slate-800">{course.title}</span>.
          </>
        }
        actions={
          <a
            href={rosterCsvUrl(course.id)}
            download
            className="inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          >
            <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
          </a>
        }
      />

      <section aria-label="Counts" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-5">
        {[
          { key: 'active', label: 'Enrolled' },
          { key: 'waitlisted', label: 'Waitlisted' },
          { key: 'offered', label: 'Offers out' },
          { key: 'pending_payment', label: 'Payment pending' },
          { key: 'dropped', label: 'Dropped' },
        ].map((c) => (
          <div key={c.key} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <p className="text-sm text-slate-600">{c.label}</p>
            <p className="mt-1 text-2xl font-bold text-slate-900">{isPending ? '–' : (counts[c.key] ?? 0)}</p>
          </div>
        ))}
      </section>

      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:max-w-2xl">
        <Select label="Session" value={sessionFilter} onChange={(e) => setFilter('session', e.target.value)}>
          <option value="">All sessions</option>
          {sessions.map((s) => (
            <option key={s.id} value={s.id}>
              {formatDateRange(s.startsOn, s.endsOn)}
              {s.status === 'cancelled' ? ' (cancelled)' : ''}
            </option>
          ))}
        </Select>
        <Select label="Status" value={statusFilter} onChange={(e) => setFilter('status', e.target.value)}>
          <option value="">All statuses</option>
          {STATUS_ORDER.map((s) => (
            <option key={s} value={s}>
              {STATUS[s].label}
            </option>
          ))}
        </Select>
      </div>

      {isPending ? (
        <div role="status" aria-label="Loading the roster" className="space-y-3">
          <Skeleton className="h-24 w-full rounded-2xl" />
          <Skeleton className="h-24 w-full rounded-2xl" />
        </div>
      ) : sessions.length === 0 ? (
        <Empty text="This course has no sessions yet, so nobody can enrol." />
      ) : rows.length === 0 ? (
        <Empty text="Nobody has enrolled yet. Learners who enrol appear here, session by session." />
      ) : (
        <div className="space-y-6">
          {groups.map(({ session, rows: list }) => (
            <section
              key={session.id}
              aria-label={`Session ${formatDateRange(session.startsOn, session.endsOn)}`}
              className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
            >
              <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-4 py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="font-semibold text-slate-900">{formatDateRange(session.startsOn, session.endsOn)}</h2>
                  <Badge tone={SESSION_STATUS[session.status].tone}>{SESSION_STATUS[session.status].label}</Badge>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <p className="text-sm text-slate-600">
                    {session.seatsTaken} / {session.capacity} seats taken{session.waitlisted ? ` · ${session.waitlisted} waitlisted` : ''}
                  </p>
                  {session.status !== 'cancelled' && (
                    <Link
                      to={paths.sessionAttendance(course.id, session.id)}
                      className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
                    >
                      <ClipboardCheck className="h-4 w-4" aria-hidden="true" /> Take attendance
                      <span className="sr-only"> for the session {formatDateRange(session.startsOn, session.endsOn)}</span>
                    </Link>
                  )}
                </div>
              </header>
              {list.length === 0 ? (
                <p className="px-4 py-6 text-sm text-slate-600">
                  {statusFilter ? 'Nobody with this status in this session.' : 'Nobody has enrolled in this session yet.'}
                </p>
              ) : (
                <RosterTable rows={list} caption={`Learners of the session ${sessionLabel(session.id)}`} />
              )}
            </section>
          ))}
          <p className="text-sm text-slate-600">
            {plural(filtered.length, 'enrolment')} shown{filtered.length !== rows.length ? ` of ${rows.length}` : ''}.
          </p>
        </div>
      )}
    </div>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <Users className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
      <p className="mt-3 font-semibold text-slate-900">No learners yet</p>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </div>
  );
}

const PAYMENT_TONE: Record<RosterRow['payment']['status'], 'green' | 'amber' | 'slate' | 'brand' | 'red'> = {
  free: 'slate',
  paid: 'green',
  installments: 'brand',
  past_due: 'red',
  refunded: 'amber',
};

/** How the seat was paid: Paid, Installments 2 of 3, Past due, Refunded, Free. */
function PaymentBadge({ payment }: { payment: RosterRow['payment'] }) {
  return <Badge tone={PAYMENT_TONE[payment.status]}>{payment.label}</Badge>;
}

function RosterTable({ rows, caption }: { rows: RosterRow[]; caption: string }) {
  return (
    <>
      {/* Wide screens: a table. */}
      <table className="hidden w-full text-left text-sm sm:table">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">
              Name
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Email
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Payment
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Enrolled
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              <span className="sr-only">Message</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.enrolmentId}>
              <td className="px-4 py-2.5">
                <LearnerCell r={r} />
              </td>
              <td className="px-4 py-2.5">
                <a href={`mailto:${r.learnerEmail}`} className="text-brand-700 hover:underline">
                  {r.learnerEmail}
                </a>
              </td>
              <td className="px-4 py-2.5">
                <StatusBadge r={r} />
              </td>
              <td className="px-4 py-2.5">
                <PaymentBadge payment={r.payment} />
              </td>
              <td className="px-4 py-2.5 text-slate-700">{formatDateTime(r.enrolledAt)}</td>
              <td className="px-4 py-2.5 text-right">
                <MessageLink userId={r.learnerId} name={r.contactName ?? r.learnerName} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* Small screens: one card per learner. */}
      <ul className="divide-y divide-slate-100 sm:hidden" aria-label={caption}>
        {rows.map((r) => (
          <li key={r.enrolmentId} className="px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-2">
              <LearnerCell r={r} />
              <StatusBadge r={r} />
            </div>
            <a href={`mailto:${r.learnerEmail}`} className="block break-all text-brand-700 hover:underline">
              {r.learnerEmail}
            </a>
            <div className="flex items-center justify-between gap-2">
              <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                <PaymentBadge payment={r.payment} /> Enrolled {formatDateTime(r.enrolledAt)}
              </p>
              <MessageLink userId={r.learnerId} name={r.contactName ?? r.learnerName} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The learner in the seat: the account holder, or (family accounts, ADR 0074) their learner
 * profile by first name and age, with the holder as the contact and the notes for the educator.
 */
function LearnerCell({ r }: { r: RosterRow }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-slate-900">
        {r.learnerName}
        {r.learnerAge && <span className="font-normal text-slate-600"> (age {r.learnerAge})</span>}
      </p>
      {r.contactName && <p className="text-xs text-slate-600">Contact: {r.contactName}</p>}
      {r.notes && <p className="mt-0.5 whitespace-pre-line text-xs text-slate-700">Notes: {r.notes}</p>}
    </div>
  );
}

/** Opens the mailbox conversation with a learner (the mailbox feature's page, by its path). */
function MessageLink({ userId, name }: { userId: string; name: string }) {
  return (
    <Link
      to={paths.mailboxConversation(userId)}
      className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:underline"
      aria-label={`Message ${name}`}
    >
      <MessageSquare className="h-4 w-4" aria-hidden="true" /> Message
    </Link>
  );
}
