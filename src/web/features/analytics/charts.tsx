import { useId, useState, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsResult } from '@shared/analytics-schemas';
import { money } from '@web/lib/format';

/**
 * The analytics charts (Recharts, in this page's lazy chunk only). Every chart has its
 * text alternative: the same figures as a table behind a toggle.
 */

const COLORS = ['#4338ca', '#0f766e', '#b45309', '#be123c', '#6d28d9'];
const shortDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' });

export function bucketLabel(bucket: string, kind: AnalyticsResult['bucket']): string {
  const d = new Date(`${bucket}T00:00:00Z`);
  if (kind === 'month') return monthFormat.format(d);
  return kind === 'week' ? `Week of ${shortDay.format(d)}` : shortDay.format(d);
}
const axisLabel = (bucket: string, kind: AnalyticsResult['bucket']) =>
  kind === 'month' ? monthFormat.format(new Date(`${bucket}T00:00:00Z`)) : shortDay.format(new Date(`${bucket}T00:00:00Z`));

export const percent = (x: number | null) => (x === null ? '–' : `${Math.round(x * 1000) / 10}%`);

/**
 * A chart panel: its title, the chart, and a toggle to its data table. Without rows it says
 * so (`empty`); with rows the chart cannot draw (every bar at zero, say), `blank` says what
 * the figures are instead of an empty frame, and the table stays one click away.
 */
export function ChartPanel({
  title,
  description,
  columns,
  rows,
  children,
  empty,
  blank,
}: {
  title: string;
  description: string;
  columns: string[];
  rows: (string | number)[][];
  children: ReactNode;
  empty?: string;
  blank?: string | null;
}) {
  const id = useId();
  const [table, setTable] = useState(false);
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {rows.length > 0 && (
          <button
            type="button"
            aria-expanded={table}
            aria-controls={`${id}-table`}
            onClick={() => setTable((t) => !t)}
            className="rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
          >
            {table ? 'Show chart' : 'Show as table'}
          </button>
        )}
      </div>
      <p className="mb-3 text-sm text-slate-600">{description}</p>
      {rows.length === 0 || (blank && !table) ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600" data-chart-empty="">
          {rows.length === 0 ? (empty ?? 'Nothing in this range yet.') : blank}
        </p>
      ) : table ? (
        <div id={`${id}-table`} className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                {columns.map((c, i) => (
                  <th key={c} scope="col" className={`py-1.5 pr-3 font-medium ${i > 0 ? 'text-right' : ''}`}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i} className="border-b border-slate-100 last:border-0">
                  {r.map((cell, j) => (
                    <td key={j} className={`py-1.5 pr-3 tabular-nums ${j > 0 ? 'text-right' : 'text-slate-800'}`}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div id={`${id}-table`} className="h-60 w-full" role="img" aria-label={`${title} (chart; "Show as table" gives the figures)`}>
          {children}
        </div>
      )}
    </section>
  );
}

const axis = { fontSize: 12, fill: '#475569' };

export function EnrolmentsChart({ data }: { data: AnalyticsResult }) {
  const points = data.series.enrolments.map((p) => ({ label: axisLabel(p.bucket, data.bucket), enrolments: p.enrolments }));
  return (
    <ChartPanel
      title="Enrolments over time"
      description={`New enrolments per ${data.bucket}.`}
      columns={[data.bucket === 'day' ? 'Day' : data.bucket === 'week' ? 'Week' : 'Month', 'Enrolments']}
      rows={
        data.series.enrolments.some((p) => p.enrolments > 0)
          ? data.series.enrolments.map((p) => [bucketLabel(p.bucket, data.bucket), p.enrolments])
          : []
      }
      empty="No enrolments in this range."
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" minTickGap={16} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip />
          <Bar isAnimationActive={false} dataKey="enrolments" name="Enrolments" fill={COLORS[0]} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

export function RevenueChart({ data }: { data: AnalyticsResult }) {
  const currencies = [...new Set(data.series.revenue.map((p) => p.currency))];
  const byBucket = new Map<string, Record<string, number | string>>();
  for (const p of data.series.revenue) {
    const row = byBucket.get(p.bucket) ?? { label: axisLabel(p.bucket, data.bucket) };
    row[p.currency] = p.net / 100;
    byBucket.set(p.bucket, row);
  }
  return (
    <ChartPanel
      title="Net revenue over time"
      description="What you keep after the platform fee and refunds, per currency (never added together)."
      columns={[data.bucket === 'day' ? 'Day' : data.bucket === 'week' ? 'Week' : 'Month', 'Currency', 'Gross', 'Net']}
      rows={data.series.revenue
        .filter((p) => p.gross || p.net)
        .map((p) => [bucketLabel(p.bucket, data.bucket), p.currency.toUpperCase(), money(p.gross, p.currency), money(p.net, p.currency)])}
      empty="No sales in this range."
    >
      {/* Bars, not a line: a sale on one day is a bar of that day's height, where a line from
          the zero days around it drew a sliver at the chart's edge (issue 23). */}
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={[...byBucket.values()]} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" minTickGap={16} />
          <YAxis tick={axis} />
          <Tooltip formatter={(v, name) => money(Math.round(Number(v) * 100), String(name))} />
          {currencies.length > 1 && <Legend />}
          {currencies.map((c, i) => (
            <Bar
              key={c}
              isAnimationActive={false}
              dataKey={c}
              name={c.toUpperCase()}
              fill={COLORS[i % COLORS.length]}
              minPointSize={(v) => (Number(v) ? 3 : 0)}
              radius={[4, 4, 0, 0]}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

export function FunnelChart({ data }: { data: AnalyticsResult }) {
  // Those who reached the course page: the views, or the checkouts started when more (glossary: conversion).
  const top = Math.max(data.series.funnel[0]?.count ?? 0, data.series.funnel[1]?.count ?? 0);
  return (
    <ChartPanel
      title="From page view to paid seat"
      description="Course page views, checkouts started and paid checkouts in this range."
      columns={['Stage', 'Count', 'Of those reaching the page']}
      rows={
        data.series.funnel.some((f) => f.count > 0)
          ? data.series.funnel.map((f) => [f.stage, f.count, top ? percent(f.count / top) : '–'])
          : []
      }
      empty="No views or checkouts in this range."
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data.series.funnel} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={axis} />
          <YAxis type="category" dataKey="stage" tick={axis} width={110} />
          <Tooltip />
          <Bar isAnimationActive={false} dataKey="count" name="Count" radius={[0, 4, 4, 0]}>
            {data.series.funnel.map((f, i) => (
              <Cell key={f.stage} fill={COLORS[i % COLORS.length]} />
            ))}
            <LabelList dataKey="count" position="right" fontSize={11} fill="#334155" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

export function RatingsChart({ data }: { data: AnalyticsResult }) {
  const total = data.series.ratings.reduce((n, r) => n + r.count, 0);
  return (
    <ChartPanel
      title="Ratings"
      description="Reviews written in this range, by stars."
      columns={['Stars', 'Reviews']}
      rows={total ? [...data.series.ratings].reverse().map((r) => [`${r.stars} ★`, r.count]) : []}
      empty="No reviews in this range."
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={data.series.ratings.map((r) => ({ ...r, label: `${r.stars}★` }))}
          margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip />
          <Bar isAnimationActive={false} dataKey="count" name="Reviews" fill={COLORS[2]} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

export function RatingTrendChart({ data }: { data: AnalyticsResult }) {
  const points = data.series.ratingTrend.map((t) => ({
    label: axisLabel(t.bucket, data.bucket),
    average: Math.round(t.average * 100) / 100,
  }));
  return (
    <ChartPanel
      title="Rating trend"
      description={`Average stars of the reviews written each ${data.bucket}.`}
      columns={[data.bucket === 'day' ? 'Day' : data.bucket === 'week' ? 'Week' : 'Month', 'Average', 'Reviews']}
      rows={data.series.ratingTrend.map((t) => [bucketLabel(t.bucket, data.bucket), t.average.toFixed(2), t.count])}
      empty="No reviews in this range."
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} />
          <YAxis domain={[1, 5]} ticks={[1, 2, 3, 4, 5]} tick={axis} />
          <Tooltip />
          <Line isAnimationActive={false} type="monotone" dataKey="average" name="Average" stroke={COLORS[2]} strokeWidth={2} />
        </LineChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

/** What the fill chart says when it has nothing to draw: every session started with no seat taken. */
export function fillBlank(sessions: AnalyticsResult['series']['fill']): string | null {
  if (!sessions.length || sessions.some((s) => s.seatsTaken > 0)) return null;
  const seats = sessions.reduce((n, s) => n + s.capacity, 0);
  return sessions.length === 1
    ? `The one session that started in this range had none of its ${seats} seats taken (0%).`
    : `The ${sessions.length} sessions that started in this range had none of their ${seats} seats taken (0%).`;
}

export function FillChart({ data }: { data: AnalyticsResult }) {
  const sessions = [...data.series.fill].reverse();
  return (
    <ChartPanel
      title="Fill rate per session"
      description="Seats taken of seats offered, for sessions that started in this range."
      columns={['Session', 'Seats taken', 'Fill rate']}
      rows={sessions.map((s) => [
        `${s.courseTitle} · ${shortDay.format(new Date(`${s.startsOn}T00:00:00Z`))}`,
        `${s.seatsTaken} of ${s.capacity}`,
        percent(s.fillRate),
      ])}
      empty="No session started in this range."
      blank={fillBlank(sessions)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={sessions.map((s) => ({
            label: shortDay.format(new Date(`${s.startsOn}T00:00:00Z`)),
            fill: Math.round(s.fillRate * 100),
            title: s.courseTitle,
          }))}
          margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} />
          <YAxis domain={[0, 100]} unit="%" tick={axis} />
          <Tooltip formatter={(v) => `${String(v)}%`} labelFormatter={(l, p) => `${String(p?.[0]?.payload?.title ?? '')} · ${String(l)}`} />
          <Bar isAnimationActive={false} dataKey="fill" name="Fill rate" fill={COLORS[1]} radius={[4, 4, 0, 0]}>
            {/* Each bar says its rate, so a session at 0% shows "0%" rather than nothing. */}
            <LabelList dataKey="fill" position="top" formatter={(v: unknown) => `${String(v)}%`} fontSize={11} fill="#334155" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

/** Attendance (issue 25): present or late among the marks taken, per session that started in the range. */
export function AttendanceChart({ data }: { data: AnalyticsResult }) {
  const sessions = [...data.series.fill].reverse();
  const taken = sessions.filter((s) => s.attendanceRate !== null);
  return (
    <ChartPanel
      title="Attendance rate per session"
      description="Present or late among the attendance marks taken, for sessions that started in this range."
      columns={['Session', 'Attendance rate']}
      rows={sessions.map((s) => [
        `${s.courseTitle} · ${shortDay.format(new Date(`${s.startsOn}T00:00:00Z`))}`,
        s.attendanceRate === null ? 'Not taken' : percent(s.attendanceRate),
      ])}
      empty="No session started in this range."
      blank={sessions.length > 0 && !taken.length ? 'No attendance was taken in the sessions that started in this range.' : null}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={taken.map((s) => ({
            label: shortDay.format(new Date(`${s.startsOn}T00:00:00Z`)),
            rate: Math.round(s.attendanceRate! * 100),
            title: s.courseTitle,
          }))}
          margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axis} />
          <YAxis domain={[0, 100]} unit="%" tick={axis} />
          <Tooltip formatter={(v) => `${String(v)}%`} labelFormatter={(l, p) => `${String(p?.[0]?.payload?.title ?? '')} · ${String(l)}`} />
          <Bar isAnimationActive={false} dataKey="rate" name="Attendance rate" fill={COLORS[0]} radius={[4, 4, 0, 0]}>
            <LabelList dataKey="rate" position="top" formatter={(v: unknown) => `${String(v)}%`} fontSize={11} fill="#334155" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}
