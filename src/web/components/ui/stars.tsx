import { Star } from 'lucide-react';

/** A 0-5 rating as five stars, partly filled; read out as "Rated 4.5 out of 5". */
export function Stars({
  value,
  count,
  size = 'sm',
  showValue = true,
}: {
  value: number;
  count?: number;
  size?: 'sm' | 'md' | 'lg';
  showValue?: boolean;
}) {
  const px = size === 'lg' ? 'h-6 w-6' : size === 'md' ? 'h-5 w-5' : 'h-4 w-4';
  const rated = count === undefined || count > 0;
  const label = rated
    ? `Rated ${value.toFixed(1)} out of 5${count !== undefined ? ` from ${count} ${count === 1 ? 'review' : 'reviews'}` : ''}`
    : 'No reviews yet';
  return (
    <span className="inline-flex items-center gap-1.5" role="img" aria-label={label}>
      <span className="inline-flex" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((i) => {
          const fill = rated ? Math.max(0, Math.min(1, value - i)) : 0;
          return (
            <span key={i} className={`relative ${px}`}>
              <Star className={`absolute inset-0 ${px} text-slate-300`} strokeWidth={1.5} />
              {fill > 0 && (
                <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                  <Star className={`${px} fill-amber-400 text-amber-500`} strokeWidth={1.5} />
                </span>
              )}
            </span>
          );
        })}
      </span>
      {showValue && (
        <span aria-hidden="true" className="text-sm text-slate-700">
          {rated ? (
            <>
              <span className="font-semibold text-slate-900">{value.toFixed(1)}</span>
              {count !== undefined && <span className="text-slate-600"> ({count})</span>}
            </>
          ) : (
            <span className="text-slate-600">New</span>
          )}
        </span>
      )}
    </span>
  );
}
