import { Star } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { Badge } from '@web/components/ui/badge';
import { Stars } from '@web/components/ui/stars';

type Review = CourseView['reviews'][number];

/** Average, count and the spread of ratings as bars. */
export function RatingSummary({ avg, count, reviews }: { avg: number; count: number; reviews: Review[] }) {
  const by = [5, 4, 3, 2, 1].map((n) => ({ n, count: reviews.filter((r) => r.rating === n).length }));
  const max = Math.max(1, reviews.length);
  return (
    <div className="flex flex-wrap items-center gap-6">
      <div className="text-center">
        {count > 0 && <p className="text-4xl font-bold text-slate-900">{avg.toFixed(1)}</p>}
        <Stars value={avg} count={count} showValue={false} size="md" />
        <p className="mt-1 text-sm text-slate-600">{count ? `${count} ${count === 1 ? 'review' : 'reviews'}` : 'No reviews yet'}</p>
      </div>
      {reviews.length > 0 && (
        <div className="min-w-[12rem] flex-1">
          <ul className="space-y-1" aria-label="Ratings by stars">
            {by.map(({ n, count: c }) => (
              <li key={n} className="flex items-center gap-2 text-sm">
                <span className="flex w-8 items-center justify-end gap-0.5 text-slate-700" aria-hidden="true">
                  {n}
                  <Star className="h-3.5 w-3.5 fill-amber-400 text-amber-500" />
                </span>
                <span
                  className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100"
                  role="img"
                  aria-label={`${n} ${n === 1 ? 'star' : 'stars'}: ${c} ${c === 1 ? 'review' : 'reviews'}`}
                >
                  <span className="block h-full rounded-full bg-amber-400" style={{ width: `${(c / max) * 100}%` }} />
                </span>
                <span className="w-6 text-right text-slate-600" aria-hidden="true">
                  {c}
                </span>
              </li>
            ))}
          </ul>
          {reviews.length < count && <p className="mt-1 text-xs text-slate-600">Spread of the latest {reviews.length} reviews.</p>}
        </div>
      )}
    </div>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function ReviewList({ reviews }: { reviews: Review[] }) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Reviews">
      {reviews.map((r) => (
        <li key={r.id} className="py-4">
          <div className="flex items-center gap-3">
            <img
              src={r.authorImage}
              alt=""
              className="h-9 w-9 rounded-full border border-slate-200 object-cover"
              width={36}
              height={36}
              loading="lazy"
            />
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
                {r.authorName} {r.mine && <Badge tone="brand">Your review</Badge>}
              </p>
              <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                <Stars value={r.rating} showValue={false} />
                <time dateTime={r.updatedAt}>{dateFormat.format(new Date(r.updatedAt))}</time>
              </p>
            </div>
          </div>
          {r.text && <p className="mt-2 whitespace-pre-wrap break-words text-sm text-slate-700">{r.text}</p>}
        </li>
      ))}
    </ul>
  );
}
