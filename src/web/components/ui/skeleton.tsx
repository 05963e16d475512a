/** The skeleton block of loading states. */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-slate-200/80 ${className}`} aria-hidden="true" />;
}

/** The loading state of an editor page: the shape of a header and two cards. */
export function EditorSkeleton({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="mx-auto max-w-5xl" role="status" aria-label={label}>
      <Skeleton className="h-8 w-2/3 sm:w-1/2" />
      <Skeleton className="mt-3 h-4 w-1/3" />
      <Skeleton className="mt-8 h-40 w-full rounded-2xl" />
      <Skeleton className="mt-6 h-64 w-full rounded-2xl" />
    </div>
  );
}
