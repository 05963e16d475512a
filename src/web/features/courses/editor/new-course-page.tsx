import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { PageHeader } from '@web/components/ui/card';
import { useViewer } from '@web/lib/viewer';
import { CourseForm } from './course-form';
import { EducatorOnly } from '@web/components/educator-only';
import { paths } from '@web/lib/paths';

/** /course/new: an educator writes a new course (saved as a draft, then its edit page). */
export default function NewCoursePage() {
  return (
    <EducatorOnly>
      <NewCourse />
    </EducatorOnly>
  );
}

function NewCourse() {
  const me = useViewer();
  return (
    <div className="mx-auto max-w-5xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link to={paths.educator(me.id)} className="hover:text-brand-700 hover:underline">
          Your educator profile
        </Link>
        <span aria-hidden="true"> / </span>
        <span>New course</span>
      </nav>
      <PageHeader
        title="Create a course"
        subtitle="Describe your course; you add its sessions and class times next. Nothing is public until you publish."
      />
      <Steps current={1} />
      <CourseForm />
    </div>
  );
}

/** Where the educator is in creating a course. */
export function Steps({ current }: { current: 1 | 2 | 3 }) {
  const steps = ['Describe the course', 'Add a session and class times', 'Publish'];
  return (
    <ol className="mb-6 grid gap-2 text-sm sm:grid-cols-3" aria-label="Steps to publish a course">
      {steps.map((s, i) => {
        const n = i + 1;
        const state = n < current ? 'done' : n === current ? 'current' : 'todo';
        return (
          <li
            key={s}
            aria-current={state === 'current' ? 'step' : undefined}
            className={`flex items-center gap-2 rounded-xl border px-3 py-2 ${state === 'current' ? 'border-brand-600 bg-brand-50 text-brand-800' : state === 'done' ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : 'border-slate-200 bg-white text-slate-600'}`}
          >
            <span
              className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${state === 'current' ? 'bg-brand-700 text-white' : state === 'done' ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-700'}`}
            >
              {state === 'done' ? <Check className="h-3.5 w-3.5" aria-hidden="true" /> : n}
            </span>
            <span className="font-medium">
              {state === 'done' && <span className="sr-only">Done: </span>}
              {s}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
