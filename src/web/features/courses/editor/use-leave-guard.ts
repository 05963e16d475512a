import { useEffect, useLayoutEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * Leaving with unsaved changes asks first: a link in the app (the returned blocker, shown as
 * a dialog by the form), or closing the tab (the browser's own prompt). `allowLeaving` lets
 * the form's own navigation after a save go through.
 */
export function useLeaveGuard(state: { isDirty: boolean; isSubmitSuccessful: boolean; isSubmitting: boolean }) {
  const dirty = state.isDirty && !state.isSubmitSuccessful;
  // The blocker reads the latest value when a navigation starts (the save navigates while its
  // submit is still running), so it is kept in a ref, synced after each commit.
  const dirtyRef = useRef(dirty);
  const blockLeaving = dirty && !state.isSubmitting;
  useLayoutEffect(() => {
    dirtyRef.current = blockLeaving;
  }, [blockLeaving]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (ev: BeforeUnloadEvent) => ev.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return {
    blocker,
    allowLeaving: () => {
      dirtyRef.current = false;
    },
  };
}
