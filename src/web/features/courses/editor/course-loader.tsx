import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { CourseView } from '@shared/courses-schemas';
import { isNotFound } from '@web/lib/api';
import NotFoundPage from '@web/components/not-found-page';
import { useViewer } from '@web/lib/viewer';
import { courseQuery } from '../api/courses';
import { EditorSkeleton } from '@web/components/ui/skeleton';
import { EducatorOnly } from '@web/components/educator-only';
import { isUuid } from '@web/lib/ids';
import { paths } from '@web/lib/paths';
import { LoadError } from '@web/components/ui/load-error';

/**
 * Loads the course of the URL for its educator and renders `children` with it. A
 * non-educator goes to onboarding; an unknown course, or another educator's, shows the
 * Not Found page (the API answers 404/403).
 */
export function OwnedCourse({ children }: { children: (course: CourseView) => ReactNode }) {
  return (
    <EducatorOnly>
      <Load>{children}</Load>
    </EducatorOnly>
  );
}

function Load({ children }: { children: (course: CourseView) => ReactNode }) {
  const { courseID } = useParams();
  const me = useViewer();
  const valid = isUuid(courseID);
  const { data, error, refetch } = useQuery({ ...courseQuery(courseID ?? ''), enabled: valid });
  if (!valid) return <NotFoundPage />;
  if (error && !data) {
    if (isNotFound(error)) return <NotFoundPage />;
    return (
      <LoadError
        title="This course could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }
  if (!data) return <EditorSkeleton label="Loading the course…" />;
  if (!data.isOwner || data.educator.userId !== me.id) return <NotFoundPage />;
  return <>{children(data)}</>;
}

/** "Course title / Edit / <page>" above an editor sub-page. */
export function CourseCrumbs({ course, here }: { course: CourseView; here: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 flex min-w-0 flex-wrap items-center gap-x-1 text-sm text-slate-600">
      <Link to={paths.editCourse(course.id)} className="max-w-full truncate hover:text-brand-700 hover:underline">
        {course.title}
      </Link>
      <span aria-hidden="true">/</span>
      <span>{here}</span>
    </nav>
  );
}
