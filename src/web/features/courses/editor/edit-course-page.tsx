import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Archive, CheckCircle2, Circle, Eye, Users } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Button, ButtonLink } from '@web/components/ui/button';
import { useViewer } from '@web/lib/viewer';
import { archiveCourse } from '../api/courses';
import { Badge } from '@web/components/ui/badge';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Toast, useFlash, type Flash } from '@web/components/ui/toast';
import { OwnedCourse } from './course-loader';
import { CourseForm } from './course-form';
import { SessionsPanel } from './sessions-panel';
import { CertificatePanel } from './certificate-panel';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

/** /course/:courseID/edit — the course's educator only; anyone else sees Not Found. */
export default function EditCoursePage() {
  return <OwnedCourse>{(course) => <EditCourse course={course} />}</OwnedCourse>;
}

export const COURSE_STATUS = {
  draft: { label: 'Draft', tone: 'amber' },
  published: { label: 'Published', tone: 'green' },
  archived: { label: 'Archived', tone: 'slate' },
} as const;

function EditCourse({ course }: { course: CourseView }) {
  const me = useViewer();
  const [flash, setFlash] = useFlash();
  const needsSession = !!(useLocation().state as { needsSession?: boolean } | null)?.needsSession;
  const [highlight] = useState(needsSession);

  const status = COURSE_STATUS[course.status];
  return (
    <div className="mx-auto max-w-5xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link to={paths.educator(me.id)} className="hover:text-brand-700 hover:underline">
          Your courses
        </Link>
        <span aria-hidden="true"> / </span>
        <span>Edit course</span>
      </nav>
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="break-words text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{course.title}</h1>
            <Badge tone={status.tone}>{status.label}</Badge>
          </div>
          <p className="mt-1 text-slate-600">{course.summary}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={paths.course(course.id)} variant="secondary">
            <Eye className="h-4 w-4" aria-hidden="true" /> {course.status === 'published' ? 'View course page' : 'Preview'}
          </ButtonLink>
          <ButtonLink to={paths.courseRoster(course.id)} variant="secondary">
            <Users className="h-4 w-4" aria-hidden="true" /> Roster
          </ButtonLink>
        </div>
      </header>

      <div className="space-y-6">
        {course.status !== 'published' && <PublishChecklist course={course} />}
        <SessionsPanel course={course} highlight={highlight && course.sessions.length === 0} onFlash={setFlash} />
        <div>
          <h2 className="sr-only">Course details</h2>
          <CourseForm key={course.id} course={course} onSaved={setFlash} />
        </div>
        <CertificatePanel courseId={course.id} onFlash={setFlash} />
        {course.status !== 'archived' && <ArchiveCard course={course} onFlash={setFlash} />}
      </div>
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}

/** What a draft still needs; the one Publish button is the form's (it saves the changes first). */
function PublishChecklist({ course }: { course: CourseView }) {
  const open = course.sessions.filter((s) => s.status !== 'cancelled' && s.status !== 'completed');
  const hasSession = open.length > 0;
  const hasTimes = open.some((s) => s.classTimes.length > 0);
  const items = [
    { done: true, text: 'Describe the course' },
    {
      done: hasSession,
      text: 'Add a session (dates, seats, time zone)',
      link: hasSession ? undefined : { to: paths.newSession(course.id), label: 'Add session' },
    },
    {
      done: hasTimes,
      text: 'Add its class times (recommended)',
      link: hasSession && !hasTimes ? { to: paths.newClassTime(course.id, open[0].id), label: 'Add class times' } : undefined,
    },
  ];

  return (
    <section aria-labelledby="publish-heading" className="rounded-2xl border border-brand-100 bg-brand-50/60 p-4 sm:p-6">
      <h2 id="publish-heading" className="text-lg font-semibold text-slate-900">
        {course.status === 'archived' ? 'This course is archived' : 'Ready to publish?'}
      </h2>
      <p className="mt-0.5 text-sm text-slate-700">
        {course.status === 'archived'
          ? 'It is hidden from search. Publish it again (at the bottom of the page) to open it to learners.'
          : 'Publishing makes the course visible in search and open for enrolment: use "Publish course" at the bottom of the page.'}
      </p>
      <ul className="mt-4 space-y-2 text-sm">
        {items.map((i) => (
          <li key={i.text} className="flex flex-wrap items-center gap-2">
            {i.done ? (
              <CheckCircle2 className="h-5 w-5 text-emerald-600" aria-hidden="true" />
            ) : (
              <Circle className="h-5 w-5 text-slate-400" aria-hidden="true" />
            )}
            <span className={i.done ? 'text-slate-700' : 'font-medium text-slate-900'}>
              <span className="sr-only">{i.done ? 'Done: ' : 'To do: '}</span>
              {i.text}
            </span>
            {i.link && (
              <Link to={i.link.to} className="font-semibold text-brand-700 hover:underline">
                {i.link.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
      {!hasSession && (
        <p className="mt-3 text-sm text-slate-700">Learners enrol in a session, so a course needs one before it can be published.</p>
      )}
    </section>
  );
}

function ArchiveCard({ course, onFlash }: { course: CourseView; onFlash: (f: Flash) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function archive() {
    setBusy(true);
    setError(null);
    try {
      const { message } = await archiveCourse(course.id);
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.educator(course.educator.userId) });
      setOpen(false);
      onFlash({ text: message });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The course could not be archived');
    } finally {
      setBusy(false);
    }
  }
  return (
    <section
      aria-labelledby="archive-heading"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div>
        <h2 id="archive-heading" className="font-semibold text-slate-900">
          Archive this course
        </h2>
        <p className="text-sm text-slate-600">Hides it from search and your profile. Enrolled learners keep their sessions.</p>
      </div>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Archive className="h-4 w-4" aria-hidden="true" /> Archive
      </Button>
      <ConfirmDialog
        open={open}
        title="Archive this course?"
        confirmLabel="Archive"
        busy={busy}
        error={error}
        onConfirm={() => void archive()}
        onClose={() => setOpen(false)}
      >
        <p>“{course.title}” will be hidden from search. You can publish it again later.</p>
      </ConfirmDialog>
    </section>
  );
}
