import { useEffect, useRef } from 'react';

/**
 * Calls `loadMore` when the returned ref's element (a sentinel below a list) scrolls into
 * view, while `enabled` (there is a next page and none is loading). Pair it with a visible
 * "Show more" button: keyboard users and browsers without IntersectionObserver use that.
 */
export function useLoadMoreOnScroll<T extends Element>(loadMore: () => void, enabled: boolean) {
  const ref = useRef<T>(null);
  const latest = useRef(loadMore);
  useEffect(() => {
    latest.current = loadMore;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}
