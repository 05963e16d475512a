import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@web/lib/api';
import { bootstrapViewer } from '@web/lib/bootstrap';
import { meQuery } from '@web/lib/viewer';
import { createRouter } from '@web/app/router';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API client already retries idempotent requests; do not retry client errors here.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 1,
      refetchOnWindowFocus: true,
    },
  },
});
// The page says who is signed in (decision 0027): the first render does not wait for GET /api/me.
const viewer = bootstrapViewer();
if (viewer !== undefined) queryClient.setQueryData(meQuery.queryKey, viewer);
const router = createRouter(queryClient);

// A transition: React renders the first page in slices of about 5 ms, yielding to the browser
// between them, instead of one long task (decision 0033). The static top bar stays until the
// commit, so nothing shows half-rendered.
const render = () => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
};
// The first render waits for the page's lazy chunks (the router's initial load): the static top
// bar of index.html stays on screen until the page replaces it, with no empty frame and no
// render of nothing in between (decision 0030).
if (router.state.initialized) render();
else {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}
