import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, BarChart3, Download, Minus } from 'lucide-react';
import type { AnalyticsResult, FigurePair } from '@shared/analytics-schemas';
import { PageHeader } from '@web/components/ui/card';
import { Panel } from '@web/components/ui/panel';
import { Select } from '@web/components/ui/inputs';
import { Skeleton } from '@web/components/ui/skeleton';
import { LoadError } from '@web/components/ui/load-error';
import { buttonClass, Button } from '@web/components/ui/button';
import NotFoundPage from '@web/components/not-found-page';
import { ApiError } from '@web/lib/api';
import { formatDateRange, money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { analyticsCsvUrl, analyticsQuery, type AnalyticsParams } from './api/analytics';
import { PRESETS, rangeFromSearch } from './range';
import { AttendanceChart, EnrolmentsChart, FillChart, FunnelChart, percent, RatingsChart, RatingTrendChart, RevenueChart } from './charts';
import { CourseTable } from './course-table';

const count = new Intl.NumberFormat('en');
const signed = new Intl.NumberFormat('en', { signDisplay: 'exceptZero', maximumFractionDigits: 1 });

type Kind = 'count' | 'rate' | 'stars';
const show = (v: number | null, kind: Kind) =>
  v === null ? '–' : kind === 'rate' ? percent(v) : kind === 'stars' ? `${v.toFixed(2)} ★` : count.format(v);

/** The change against the previous period, in words a screen reader reads too. */
function Delta({
  pair,
  kind,
  money: currency,
  lowerIsBetter,
  compact,
}: {
  pair: FigurePair;
  kind: Kind;
  money?: string;
  lowerIsBetter?: boolean;
  compact?: boolean;
}) {
  const { current, previous } = pair;
  if (current === null || previous === null) return <span className="text-xs text-slate-600">No figure for the previous period</span>;
  const diff = current - previous;
  const text =
    currency !== undefined
      ? `${diff > 0 ? '+' : ''}${money(diff, currency)}`
      : kind === 'rate'
        ? `${signed.format(Math.round(diff * 1000) / 10)} pts`
        : kind === 'stars'
          ? signed.format(Math.round(diff * 100) / 100)
          : signed.format(diff);
  const good = diff === 0 ? null : lowerIsBetter ? diff < 0 : diff > 0;
  const Icon = diff === 0 ? Minus : diff > 0 ? ArrowUp : ArrowDown;
  const tone = good === null ? 'text-slate-600' : good ? 'text-emerald-700' : 'text-red-700';
  return (
    <span className={`inline-flex items-center gap-1 text-xs font-medium ${tone}`}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {diff === 0 ? 'No change' : text} <span className={compact ? 'sr-only' : 'font-normal text-slate-600'}>vs previous period</span>
    </span>
  );
}

function Figure({
  label,
  pair,
  kind = 'count',
  note,
  lowerIsBetter,
}: {
  label: string;
  pair: FigurePair;
  kind?: Kind;
  note?: string;
  lowerIsBetter?: boolean;
}) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{show(pair.current, kind)}</dd>
      {note && <dd className="text-xs text-slate-600">{note}</dd>}
      <dd className="mt-1">
        <Delta pair={pair} kind={kind} lowerIsBetter={lowerIsBetter} />
      </dd>
    </div>
  );
}

function Headline({ data }: { data: AnalyticsResult }) {
  const f = data.figures;
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-3" aria-label="Headline figures">
        <Figure label="Enrolments" pair={f.enrolments} />
        <Figure label="Learners" pair={f.learners} />
        <Figure label="Course page views" pair={f.views} note="One per person per day" />
        <Figure
          label="View to paid conversion"
          pair={f.conversion}
          kind="rate"
          note={`${f.checkouts.current ?? 0} checkouts, ${f.paid.current ?? 0} paid`}
        />
        <Figure label="Average rating" pair={f.averageRating} kind="stars" note={`${f.reviews.current ?? 0} reviews`} />
        <Figure label="Fill rate" pair={f.fillRate} kind="rate" note="Seats taken in sessions that started" />
        <Figure
          label="Drops"
          pair={f.drops}
          lowerIsBetter
          note={`${f.refunds.current ?? 0} sales refunded (${f.refunds.previous ?? 0} before)`}
        />
        <Figure label="Waitlist demand" pair={f.waitlist} note="Waiting when a session started" />
        <Figure label="Re-enrolment rate" pair={f.reenrolmentRate} kind="rate" note="Learners with 2+ of your courses" />
      </dl>
      <Revenue data={data} />
    </div>
  );
}

function Revenue({ data }: { data: AnalyticsResult }) {
  if (!data.revenue.length)
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
        No sales in this range: revenue appears here once a learner pays.
      </p>
    );
  return (
    <div className="grid gap-3">
      {data.revenue.map((r) => (
        <section
          key={r.currency}
          aria-label={`Revenue in ${r.currency.toUpperCase()}`}
          className="rounded-2xl border border-brand-100 bg-brand-50/60 p-4 shadow-sm"
        >
          <h2 className="text-sm font-semibold text-slate-900">Revenue in {r.currency.toUpperCase()}</h2>
          <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(
              [
                ['Gross', 'gross', false],
                ['Platform fee', 'fee', true],
                ['Refunds', 'refunds', true],
                ['Net', 'net', false],
              ] as const
            ).map(([label, key, lower]) => (
              <div key={key}>
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className={`tabular-nums text-slate-900 ${key === 'net' ? 'text-xl font-bold' : 'text-lg font-semibold'}`}>
                  {money(r.current[key], r.currency)}
                </dd>
                <dd>
                  <Delta
                    pair={{ current: r.current[key], previous: r.previous[key] }}
                    kind="count"
                    money={r.currency}
                    lowerIsBetter={lower}
                  />
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

function Filters({ data, params }: { data?: AnalyticsResult; params: AnalyticsParams & { preset: string } }) {
  const [search, setSearch] = useSearchParams();
  const [from, setFrom] = useState(params.from);
  const [to, setTo] = useState(params.to);
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setSearch(next, { replace: false });
  };
  const applyCustom = (e: FormEvent) => {
    e.preventDefault();
    update({ range: 'custom', from, to });
  };
  return (
    <div className="mb-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Select
          label="Range"
          value={params.preset}
          onChange={(e) => {
            const v = e.target.value;
            if (v === 'custom') {
              setFrom(params.from);
              setTo(params.to);
              update({ range: 'custom', from: params.from, to: params.to });
            } else update({ range: v, from: null, to: null });
          }}
        >
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom dates</option>
        </Select>
        <Select label="Course" value={params.course ?? ''} onChange={(e) => update({ course: e.target.value || null })}>
          <option value="">All courses</option>
          {data?.courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </Select>
      </div>
      {params.preset === 'custom' && (
        <form onSubmit={applyCustom} className="mt-3 flex flex-wrap items-end gap-3" aria-label="Custom dates">
          <label className="text-sm font-medium text-slate-800">
            From
            <input
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              required
              className="mt-1 block rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </label>
          <label className="text-sm font-medium text-slate-800">
            To
            <input
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              required
              className="mt-1 block rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      )}
    </div>
  );
}

function Loading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <p role="status" className="sr-only">
        Loading your analytics…
      </p>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-28 rounded-2xl" />
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-72 rounded-2xl" />
        <Skeleton className="h-72 rounded-2xl" />
      </div>
      <Skeleton className="h-64 rounded-2xl" />
    </div>
  );
}

function EmptyState({ data }: { data: AnalyticsResult }) {
  return (
    <Panel id="analytics-empty" title={data.courses.length ? 'Your figures will appear here' : 'No courses yet'}>
      <div className="flex gap-4">
        <BarChart3 className="hidden h-10 w-10 shrink-0 text-brand-700 sm:block" aria-hidden="true" />
        <div className="space-y-2 text-sm text-slate-700">
          <p>
            As soon as people open your course pages, you will see views here within a few seconds. Enrolments, sales (gross, platform fee,
            refunds and net, per currency), ratings and how full your sessions are appear as they happen, each compared with the period
            before.
          </p>
          <p>
            {data.courses.length ? 'Share your published courses to get your first views.' : 'Create and publish a course to get started.'}
          </p>
          <div className="flex flex-wrap gap-3 pt-1">
            <Link to={data.courses.length ? paths.educatorDashboard : paths.newCourse} className={buttonClass('primary')}>
              {data.courses.length ? 'Go to your dashboard' : 'Create a course'}
            </Link>
          </div>
        </div>
      </div>
    </Panel>
  );
}

/** /educator/:educatorID/analytics — how an educator's courses do (the educator and admins only). */
export default function AnalyticsPage() {
  const { educatorID = '' } = useParams();
  const [search] = useSearchParams();
  const range = rangeFromSearch(search);
  const params: AnalyticsParams = { from: range.from, to: range.to, course: search.get('course') ?? undefined };
  const { data, error, refetch, isFetching } = useQuery(analyticsQuery(educatorID, params));

  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return <NotFoundPage />;
  const rangeError = error instanceof ApiError && error.status === 400 ? error : null;
  const current = data && !rangeError ? data : undefined;
  const course = current?.course ? current.courses.find((c) => c.id === current.course) : undefined;

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title={course ? `Analytics: ${course.title}` : 'Analytics'}
        subtitle={
          current
            ? `${formatDateRange(current.from, current.to)}, compared with ${formatDateRange(current.previousFrom, current.previousTo)}`
            : 'How your courses do.'
        }
        actions={
          current?.hasActivity ? (
            <div className="flex flex-wrap gap-2">
              <a href={analyticsCsvUrl(educatorID, 'courses', params)} download className={buttonClass('secondary')}>
                <Download className="h-4 w-4" aria-hidden="true" /> Courses CSV
              </a>
              <a href={analyticsCsvUrl(educatorID, 'sales', params)} download className={buttonClass('secondary')}>
                <Download className="h-4 w-4" aria-hidden="true" /> Sales CSV
              </a>
            </div>
          ) : undefined
        }
      />
      {(!current || current.courses.length > 0) && (
        <Filters key={`${range.from}|${range.to}`} data={current ?? data} params={{ ...params, preset: range.preset }} />
      )}
      {current?.hasActivity && (
        <p className="-mt-3 mb-4 text-xs text-slate-600">
          Figures as of {new Date(current.asOf).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}; page views arrive
          within a few seconds.
        </p>
      )}
      {rangeError ? (
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {Object.values(rangeError.fields).join(' ') || rangeError.message}
        </div>
      ) : error && !data ? (
        <LoadError title="Your analytics could not be loaded" error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : !current ? (
        <Loading />
      ) : !current.hasActivity ? (
        <EmptyState data={current} />
      ) : (
        <div className={`space-y-6 transition-opacity ${isFetching ? 'opacity-70' : ''}`} aria-busy={isFetching}>
          <Headline data={current} />
          <div className="grid gap-6 lg:grid-cols-2">
            <EnrolmentsChart data={current} />
            <RevenueChart data={current} />
            <FunnelChart data={current} />
            <FillChart data={current} />
            <RatingsChart data={current} />
            <RatingTrendChart data={current} />
            <AttendanceChart data={current} />
          </div>
          <CourseTable data={current} educatorId={educatorID} search={search} />
        </div>
      )}
    </div>
  );
}
