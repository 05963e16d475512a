import { useState } from 'react';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { AnalyticsCourseRow, AnalyticsResult } from '@shared/analytics-schemas';
import { Panel } from '@web/components/ui/panel';
import { money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { percent } from './charts';

type Key = 'title' | 'views' | 'enrolments' | 'conversion' | 'fillRate' | 'ratingAvg' | 'net' | 'refunds';
const COLUMNS: { key: Key; label: string }[] = [
  { key: 'title', label: 'Course' },
  { key: 'views', label: 'Views' },
  { key: 'enrolments', label: 'Enrolments' },
  { key: 'conversion', label: 'Conversion' },
  { key: 'fillRate', label: 'Fill rate' },
  { key: 'ratingAvg', label: 'Rating' },
  { key: 'net', label: 'Revenue (net)' },
  { key: 'refunds', label: 'Refunds' },
];

/** Sorting by revenue compares the first currency's net (amounts of different currencies are never added). */
const value = (r: AnalyticsCourseRow, key: Key): string | number => {
  if (key === 'title') return r.title.toLowerCase();
  if (key === 'net') return r.revenue[0]?.net ?? -Infinity;
  return r[key] ?? -Infinity;
};

const revenueText = (r: AnalyticsCourseRow) => (r.revenue.length ? r.revenue.map((m) => money(m.net, m.currency)) : ['–']);

/** The per-course table: sortable; a course's name opens the page filtered to it. */
export function CourseTable({ data, educatorId, search }: { data: AnalyticsResult; educatorId: string; search: URLSearchParams }) {
  const [sort, setSort] = useState<{ key: Key; desc: boolean }>({ key: 'enrolments', desc: true });
  const rows = [...data.table].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return sort.desc ? -c : c;
  });
  const linkTo = (courseId: string) => paths.educatorAnalytics(educatorId, { ...Object.fromEntries(search), course: courseId });
  return (
    <Panel id="courses-heading" title="Your courses">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">Figures per course in this range; column headers sort the table</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              {COLUMNS.map((c, i) => {
                const active = sort.key === c.key;
                const Icon = !active ? ArrowUpDown : sort.desc ? ArrowDown : ArrowUp;
                return (
                  <th
                    key={c.key}
                    scope="col"
                    aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
                    className={`py-2 pr-3 font-medium ${i > 0 ? 'text-right' : ''}`}
                  >
                    <button
                      type="button"
                      onClick={() => setSort({ key: c.key, desc: active ? !sort.desc : c.key !== 'title' })}
                      className="inline-flex items-center gap-1 rounded px-1 py-0.5 hover:bg-slate-100"
                    >
                      {c.label}
                      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.courseId} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="py-2.5 pr-3 font-medium text-slate-900">
                  <Link to={linkTo(r.courseId)} className="break-words hover:text-brand-700 hover:underline">
                    {r.title}
                  </Link>
                </th>
                <td className="py-2.5 pr-3 text-right tabular-nums">{r.views}</td>
                <td className="py-2.5 pr-3 text-right tabular-nums">{r.enrolments}</td>
                <td className="py-2.5 pr-3 text-right tabular-nums">{percent(r.conversion)}</td>
                <td className="py-2.5 pr-3 text-right tabular-nums">{percent(r.fillRate)}</td>
                <td className="py-2.5 pr-3 text-right tabular-nums">
                  {r.ratingAvg === null ? '–' : `${r.ratingAvg.toFixed(1)} (${r.ratingCount})`}
                </td>
                <td className="py-2.5 pr-3 text-right tabular-nums">
                  {revenueText(r).map((t) => (
                    <span key={t} className="block">
                      {t}
                    </span>
                  ))}
                </td>
                <td className="py-2.5 pr-3 text-right tabular-nums">{r.refunds}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
