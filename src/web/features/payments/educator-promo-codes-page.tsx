import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EducatorPromoCodes, PromoCodeView } from '@shared/promo-codes';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { Panel } from '@web/components/ui/panel';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { EducatorOnly } from '@web/components/educator-only';
import { PromoCodeList, PromoTermsFields, defaultTerms, termsBody, termsErrors, type PromoTermsValues } from '@web/components/promo-codes';
import { formatDateRange, money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { createEducatorCode, educatorPromoCodesQuery, endEducatorCode } from './api/promo-codes';

type Course = EducatorPromoCodes['courses'][number];

function CreateCode({ courses, onCreated }: { courses: Course[]; onCreated: (code: PromoCodeView) => void }) {
  const qc = useQueryClient();
  const [courseId, setCourseId] = useState(courses[0]?.id ?? '');
  const [allSessions, setAllSessions] = useState(true);
  const [sessionIds, setSessionIds] = useState<string[]>([]);
  const [terms, setTerms] = useState<PromoTermsValues>(defaultTerms);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const course = courses.find((c) => c.id === courseId);
  const create = useMutation({
    mutationFn: () =>
      createEducatorCode({ ...termsBody(terms), courseId, ...(allSessions ? {} : { sessionIds }) } as Parameters<
        typeof createEducatorCode
      >[0]),
    onSuccess: async (code) => {
      setTerms(defaultTerms());
      setErrors({});
      onCreated(code);
      await qc.invalidateQueries({ queryKey: educatorPromoCodesQuery.queryKey });
    },
    onError: (err) => setErrors(err instanceof ApiError ? err.fields : {}),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = termsErrors(terms);
    if (!courseId) found.courseId = 'Choose a course';
    if (!allSessions && sessionIds.length === 0) found.sessionIds = 'Choose at least one session';
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="New promo code">
      <div>
        <label htmlFor="promo-course" className="mb-1.5 block text-sm font-medium text-slate-800">
          Course
        </label>
        <select
          id="promo-course"
          value={courseId}
          onChange={(e) => {
            setCourseId(e.target.value);
            setSessionIds([]);
            setAllSessions(true);
          }}
          aria-invalid={errors.courseId ? true : undefined}
          aria-describedby={errors.courseId ? 'promo-course-error' : undefined}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 pr-8 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
        >
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title} ({money(c.priceCents, c.currency)})
            </option>
          ))}
        </select>
        {errors.courseId && (
          <p id="promo-course-error" className="mt-1 text-xs font-medium text-red-700">
            {errors.courseId}
          </p>
        )}
      </div>
      <fieldset aria-describedby={errors.sessionIds ? 'promo-sessions-error' : undefined}>
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Sessions</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={allSessions}
            onChange={(e) => setAllSessions(e.target.checked)}
            className="h-4 w-4 accent-brand-700"
          />
          All sessions, including ones added later
        </label>
        {!allSessions && (
          <div className="mt-2 grid gap-1 pl-6">
            {course?.sessions.length ? (
              course.sessions.map((s) => (
                <label key={s.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={sessionIds.includes(s.id)}
                    onChange={(e) => setSessionIds((ids) => (e.target.checked ? [...ids, s.id] : ids.filter((x) => x !== s.id)))}
                    className="h-4 w-4 accent-brand-700"
                  />
                  {formatDateRange(s.startsOn, s.endsOn)}
                </label>
              ))
            ) : (
              <p className="text-sm text-slate-600">This course has no sessions to come.</p>
            )}
          </div>
        )}
        {errors.sessionIds && (
          <p id="promo-sessions-error" className="mt-1 text-xs font-medium text-red-700">
            {errors.sessionIds}
          </p>
        )}
      </fieldset>
      <PromoTermsFields values={terms} onChange={setTerms} errors={errors} currency={course ? course.currency.toUpperCase() : null} />
      {create.error && !(create.error instanceof ApiError && Object.keys(create.error.fields).length) && (
        <Alert tone="error" title="The code could not be created">
          {create.error instanceof ApiError ? create.error.message : 'Please try again.'}
        </Alert>
      )}
      <Button type="submit" loading={create.isPending}>
        Create code
      </Button>
    </form>
  );
}

function PromoCodes() {
  const qc = useQueryClient();
  const { data, error, isPending, refetch, isFetching } = useQuery(educatorPromoCodesQuery);
  const [created, setCreated] = useState<PromoCodeView | null>(null);
  const end = useMutation({
    mutationFn: (code: PromoCodeView) => endEducatorCode(code.id),
    onSuccess: () => qc.invalidateQueries({ queryKey: educatorPromoCodesQuery.queryKey }),
  });
  const titles = (c: PromoCodeView) => {
    const course = data?.courses.find((x) => x.id === c.courseId);
    const sessions = c.sessionIds
      ? c.sessionIds
          .map((id) => course?.sessions.find((s) => s.id === id))
          .filter(Boolean)
          .map((s) => formatDateRange(s!.startsOn, s!.endsOn))
          .join(', ') || `${c.sessionIds.length} sessions`
      : 'all sessions';
    return `${c.courseTitle ?? 'A course'}: ${sessions}`;
  };
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Promo codes"
        subtitle="Codes for your courses: a percent or an amount off, for a time and a number of uses. Each person can use a code once."
        actions={
          <ButtonLink to={paths.educatorDashboard} variant="secondary">
            Educator dashboard
          </ButtonLink>
        }
      />
      {error && !data ? (
        <LoadError title="Could not load your promo codes" error={error} onRetry={() => refetch()} retrying={isFetching} />
      ) : (
        <>
          <Panel id="new-code-heading" title="New code">
            {isPending ? (
              <div className="space-y-3" aria-busy="true" aria-label="Loading your courses">
                <Skeleton className="h-10" />
                <Skeleton className="h-24" />
              </div>
            ) : data.courses.length === 0 ? (
              <p className="text-sm text-slate-600">
                Codes are for paid courses.{' '}
                <Link to={paths.newCourse} className="font-semibold text-brand-700 underline">
                  Create a paid course
                </Link>{' '}
                first.
              </p>
            ) : (
              <>
                {created && (
                  <div className="mb-4">
                    <Alert tone="success" title={`Code ${created.code} created`}>
                      {created.label}. Share it with the learners you want to reach.
                    </Alert>
                  </div>
                )}
                <CreateCode courses={data.courses} onCreated={setCreated} />
              </>
            )}
          </Panel>
          <Panel id="codes-heading" title="Your codes">
            {end.error && (
              <div className="mb-3">
                <Alert tone="error" title="The code could not be ended">
                  {end.error instanceof ApiError ? end.error.message : 'Please try again.'}
                </Alert>
              </div>
            )}
            <PromoCodeList
              codes={data?.codes}
              loading={isPending}
              empty="No codes yet. Create one above: learners enter it at checkout and see the new price before paying."
              onEnd={(c) => end.mutate(c)}
              ending={end.isPending ? (end.variables?.id ?? null) : null}
              scope={titles}
            />
          </Panel>
        </>
      )}
    </div>
  );
}

/** /educator/promo-codes: the educator's codes (uses, revenue, end now) and a form for a new one. */
export default function EducatorPromoCodesPage() {
  return (
    <EducatorOnly>
      <PromoCodes />
    </EducatorOnly>
  );
}
