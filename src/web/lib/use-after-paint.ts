import { useEffect, useState } from 'react';

/**
 * False on the first render, true once the screen that render produced has been painted
 * (the next frame, then a task). For work the first view does not show (a lazy chunk for
 * a part below the fold): it starts after the page is on screen instead of competing with it.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
