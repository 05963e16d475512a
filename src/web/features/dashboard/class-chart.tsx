import type { DashboardClassTime } from '@shared/dashboard-schemas';
import { dateIn } from '@shared/time';

/** Classes per day over the next two weeks, as simple bars (the numbers are read out too). */
export function ClassChart({ times, zone, days = 14 }: { times: DashboardClassTime[]; zone: string; days?: number }) {
  const now = new Date();
  const counts = new Map<string, number>();
  for (const t of times) counts.set(dateIn(new Date(t.startsAt), zone), (counts.get(dateIn(new Date(t.startsAt), zone)) ?? 0) + 1);
  const bars = Array.from({ length: days }, (_, i) => {
    const d = new Date(now.getTime() + i * 86400_000);
    const key = dateIn(d, zone);
    return {
      key,
      n: counts.get(key) ?? 0,
      weekday: new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'narrow' }).format(d),
      long: new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' }).format(d),
    };
  });
  const max = Math.max(1, ...bars.map((b) => b.n));
  const total = bars.reduce((s, b) => s + b.n, 0);
  return (
    <figure>
      <figcaption className="text-sm font-semibold text-slate-900">
        Next 2 weeks{' '}
        <span className="font-normal text-slate-600">
          · {total} {total === 1 ? 'class' : 'classes'}
        </span>
      </figcaption>
      <ol className="mt-3 flex h-28 items-end gap-1" aria-label="Classes per day">
        {bars.map((b, i) => (
          <li
            key={b.key}
            className="flex h-full flex-1 flex-col items-center justify-end gap-1"
            title={`${b.long}: ${b.n} ${b.n === 1 ? 'class' : 'classes'}`}
          >
            <span className="sr-only">
              {b.long}: {b.n} {b.n === 1 ? 'class' : 'classes'}
            </span>
            <span aria-hidden="true" className="flex w-full flex-1 items-end">
              <span
                className={`block w-full rounded-t ${b.n ? 'bg-brand-600' : 'bg-slate-200'}`}
                style={{ height: b.n ? `${Math.max(12, (b.n / max) * 100)}%` : '4px' }}
              />
            </span>
            <span aria-hidden="true" className={`text-[10px] leading-none ${i === 0 ? 'font-bold text-brand-700' : 'text-slate-500'}`}>
              {b.weekday}
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
