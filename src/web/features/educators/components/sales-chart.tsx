import type { EducatorPayouts } from '@shared/payments-schemas';
import { money } from '@web/lib/format';

const dayLabel = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const longDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const asDate = (day: string) => new Date(`${day.slice(0, 10)}T00:00:00Z`);

/** The last 30 days ending today (UTC), each with its net sales (0 when none). */
function lastDays(daily: EducatorPayouts['daily'], days: number) {
  const byDay = new Map(daily.map((d) => [d.day.slice(0, 10), d.netCents]));
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(today - (days - 1 - i) * 86400_000).toISOString().slice(0, 10);
    return { day, netCents: byDay.get(day) ?? 0 };
  });
}

/**
 * Net sales per day as simple SVG bars. Each bar has a tooltip, and screen readers get the
 * days with sales as a list (the chart itself is one labelled image).
 */
export function SalesChart({ daily, currency, days = 30 }: { daily: EducatorPayouts['daily']; currency: string; days?: number }) {
  const bars = lastDays(daily, days);
  const max = Math.max(1, ...bars.map((b) => b.netCents));
  const total = bars.reduce((s, b) => s + b.netCents, 0);
  const withSales = bars.filter((b) => b.netCents !== 0);
  const W = 300;
  const H = 100;
  const step = W / days;
  return (
    <figure>
      <figcaption className="text-sm font-semibold text-slate-900">
        Net sales, last {days} days <span className="font-normal text-slate-600">· {money(total, currency)}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        className="mt-3 block h-32 w-full"
        role="img"
        aria-label={`Net sales per day over the last ${days} days, ${money(total, currency)} in total`}
      >
        <line x1="0" y1={H - 0.5} x2={W} y2={H - 0.5} className="stroke-slate-300" strokeWidth="1" vectorEffect="non-scaling-stroke" />
        {bars.map((b, i) => {
          const h = b.netCents > 0 ? Math.max(3, (b.netCents / max) * (H - 4)) : 1.5;
          return (
            <rect
              key={b.day}
              x={i * step + step * 0.15}
              y={H - h}
              width={step * 0.7}
              height={h}
              rx="1"
              className={b.netCents > 0 ? 'fill-brand-600' : 'fill-slate-200'}
            >
              <title>{`${longDay.format(asDate(b.day))}: ${money(b.netCents, currency)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="mt-1 flex justify-between text-[11px] text-slate-600" aria-hidden="true">
        <span>{dayLabel.format(asDate(bars[0].day))}</span>
        <span>{dayLabel.format(asDate(bars[Math.floor(days / 2)].day))}</span>
        <span>Today</span>
      </div>
      <ul className="sr-only" aria-label="Days with sales">
        {withSales.length ? (
          withSales.map((b) => (
            <li key={b.day}>
              {longDay.format(asDate(b.day))}: {money(b.netCents, currency)}
            </li>
          ))
        ) : (
          <li>No sales in this period</li>
        )}
      </ul>
    </figure>
  );
}
