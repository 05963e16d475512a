/** Each size: the row of five stars (one star is as wide as it is high). */
const ROW = { sm: 'h-4 w-20', md: 'h-5 w-25', lg: 'h-6 w-30' } as const;

/**
 * A 0-5 rating as five stars, partly filled; read out as "Rated 4.5 out of 5". The stars are
 * two backgrounds (styles.css: `.stars-empty`, `.stars-full` clipped to the rating's width),
 * two elements instead of 5 to 10 SVGs: a grid of 40 cards draws 80 elements for its ratings,
 * not 800 (decision 0033).
 */
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
  const rated = count === undefined || count > 0;
  const label = rated
    ? `Rated ${value.toFixed(1)} out of 5${count !== undefined ? ` from ${count} ${count === 1 ? 'review' : 'reviews'}` : ''}`
    : 'No reviews yet';
  const filled = rated ? Math.max(0, Math.min(5, value)) / 5 : 0;
  return (
    <span className="inline-flex items-center gap-1.5" role="img" aria-label={label}>
      <span className={`stars-empty relative inline-block shrink-0 ${ROW[size]}`} aria-hidden="true">
        {filled > 0 && <span className="stars-full absolute inset-y-0 left-0" style={{ width: `${filled * 100}%` }} />}
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
