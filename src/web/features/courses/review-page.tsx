import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Star } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageLoading } from '@web/components/ui/spinner';
import { saveReview } from './api/reviews';
import { CourseCover } from '@web/components/ui/cover';
import { CourseGate } from './components/course-gate';
import { paths } from '@web/lib/paths';
import { formatDateTime } from '@web/lib/format';
import { queryKeys } from '@web/lib/query-keys';

const MAX_TEXT = 4000;
const WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

/** Five stars as a radio group: keyboard arrows move, each star is labelled "n stars". */
function StarInput({ value, onChange, error }: { value: number; onChange: (n: number) => void; error?: string }) {
  const name = useId();
  const [hover, setHover] = useState(0);
  const shown = hover || value;
  return (
    <fieldset aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">Your rating</legend>
      <div className="flex items-center gap-3">
        <div className="flex" onMouseLeave={() => setHover(0)}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="relative cursor-pointer p-0.5" onMouseEnter={() => setHover(n)}>
              <input
                type="radio"
                name={name}
                value={n}
                checked={value === n}
                onChange={() => onChange(n)}
                aria-label={`${n} ${n === 1 ? 'star' : 'stars'}`}
                className="peer absolute inset-0 h-full w-full cursor-pointer appearance-none rounded-md opacity-0"
              />
              <Star
                aria-hidden="true"
                className={`h-9 w-9 rounded-md transition peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 ${
                  n <= shown ? 'fill-amber-400 text-amber-500' : 'text-slate-300'
                }`}
                strokeWidth={1.5}
              />
            </label>
          ))}
        </div>
        <span className="text-sm font-medium text-slate-700" aria-hidden="true">
          {WORDS[shown]}
        </span>
      </div>
      {error && (
        <p id={`${name}-error`} className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function ReviewForm({ course }: { course: CourseView }) {
  const mine = course.reviews.find((r) => r.mine);
  const [rating, setRating] = useState(mine?.rating ?? 0);
  const [text, setText] = useState(mine?.text ?? '');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const textId = useId();
  const mutation = useMutation({
    mutationFn: () => saveReview(course.id, { rating, text: text.trim() }),
    onSuccess: async (r) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.courseLists }),
      ]);
      navigate(paths.course(course.id, 'reviews'), { state: { flash: r.message } });
    },
    onError: (err) => setFieldErrors(err instanceof ApiError ? err.fields : {}),
  });

  if (course.isOwner) {
    return (
      <Alert tone="info" title="This is your course">
        Educators cannot review their own courses.{' '}
        <Link to={paths.course(course.id)} className="font-semibold underline">
          Back to the course
        </Link>
      </Alert>
    );
  }
  if (!course.canReview && course.reviewOpensAt) {
    return (
      <Alert tone="info" title="You can review this course after your first class">
        Reviews open once your first class has taken place: from {formatDateTime(course.reviewOpensAt)}.{' '}
        <Link to={paths.course(course.id)} className="font-semibold underline">
          Back to the course
        </Link>
      </Alert>
    );
  }
  if (!course.canReview) {
    return (
      <Alert tone="info" title="Only learners of this course can review it">
        Enrol in a session first; you can review it once you are enrolled.{' '}
        <Link to={paths.course(course.id, 'sessions')} className="font-semibold underline">
          See the sessions
        </Link>
      </Alert>
    );
  }

  return (
    <form
      noValidate
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (rating < 1) return setFieldErrors({ rating: 'Choose a rating from 1 to 5 stars' });
        setFieldErrors({});
        mutation.mutate();
      }}
    >
      {mutation.error && (
        <Alert tone="error">
          {mutation.error instanceof ApiError ? mutation.error.message : 'Your review could not be saved. Please try again.'}
        </Alert>
      )}
      <StarInput
        value={rating}
        onChange={(n) => {
          setRating(n);
          setFieldErrors((f) => ({ ...f, rating: '' }));
        }}
        error={fieldErrors.rating || undefined}
      />
      <div>
        <label htmlFor={textId} className="mb-1.5 block text-sm font-medium text-slate-800">
          Your review
        </label>
        <textarea
          id={textId}
          rows={6}
          maxLength={MAX_TEXT}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${textId}-hint`}
          aria-invalid={fieldErrors.text ? true : undefined}
          placeholder="What did you learn? How was the educator? Who would you recommend it to?"
          className={`block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500 ${fieldErrors.text ? 'border-red-500' : 'border-slate-300'}`}
        />
        <p id={`${textId}-hint`} className={`mt-1 text-xs ${fieldErrors.text ? 'font-medium text-red-700' : 'text-slate-600'}`}>
          {fieldErrors.text || `Optional. Shown with your first name and initial. ${text.length}/${MAX_TEXT}`}
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink to={paths.course(course.id)} variant="secondary">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={mutation.isPending}>
          {mine ? 'Update review' : 'Publish review'}
        </Button>
      </div>
    </form>
  );
}

export default function ReviewPage() {
  const { courseID } = useParams();
  return (
    <CourseGate id={courseID} loading={<PageLoading label="Loading the course…" />}>
      {(course) => {
        const mine = course.reviews.find((r) => r.mine);
        return (
          <div className="mx-auto max-w-2xl">
            <div className="mb-6 flex items-center gap-4">
              <CourseCover
                src={course.coverImage}
                seed={course.id}
                title={course.title}
                category={course.category}
                className="aspect-[16/9] w-24 shrink-0 self-start rounded-lg"
              />
              <div className="min-w-0">
                <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
                  {mine ? 'Edit your review' : 'Review this course'}
                </h1>
                <p className="break-words text-slate-600">
                  <Link to={paths.course(course.id)} className="hover:text-brand-700 hover:underline">
                    {course.title}
                  </Link>{' '}
                  · {course.educator.name}
                </p>
              </div>
            </div>
            <ReviewForm course={course} />
          </div>
        );
      }}
    </CourseGate>
  );
}
