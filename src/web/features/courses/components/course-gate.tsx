import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import NotFoundPage from '@web/components/not-found-page';
import { courseQuery } from '../api/courses';
import { isUuid } from '@web/lib/ids';
import { LoadError } from '@web/components/ui/load-error';

/**
 * Loads a course and renders `children` with it; an unknown, draft (not the viewer's) or
 * malformed id shows the Not Found page, as the API's 404 says.
 */
export function CourseGate({
  id,
  loading,
  children,
}: {
  id: string | undefined;
  loading: ReactNode;
  children: (course: CourseView) => ReactNode;
}) {
  const valid = isUuid(id);
  const { data, error, refetch } = useQuery({ ...courseQuery(id ?? ''), enabled: valid });
  if (!valid) return <NotFoundPage />;
  if (error && !data) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400 || error.status === 403)) return <NotFoundPage />;
    return (
      <LoadError
        title="This course could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }
  if (!data) return <>{loading}</>;
  return <>{children(data)}</>;
}
