import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { sessionInput, type CourseView, type SessionInput } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { createSession } from '../api/course-sessions';
import { viewerTimeZone, addDays, formatDateRange, todayIn } from '@web/lib/format';
import { FormSection } from '@web/components/ui/inputs';
import { TimeZoneSelect, timeZoneLabel } from '@web/components/ui/time-zone-select';
import { useNotEducatorRedirect } from '@web/components/educator-only';
import { CourseCrumbs, OwnedCourse } from './course-loader';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

/** /course/:courseID/session/new — a new run of the course. */
export default function NewSessionPage() {
  return <OwnedCourse>{(course) => <NewSession course={course} />}</OwnedCourse>;
}

type Values = { startsOn: string; endsOn: string; capacity: number; minToRun: number; timeZone: string };
const FIELDS = new Set(['startsOn', 'endsOn', 'capacity', 'minToRun', 'timeZone']);

function NewSession({ course }: { course: CourseView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notEducator = useNotEducatorRedirect();
  const zone = viewerTimeZone();
  const today = todayIn(zone);
  const { register, control, handleSubmit, formState, setError } = useForm<SessionInput, unknown, Values>({
    resolver: zodResolver(sessionInput) as never,
    mode: 'onTouched',
    defaultValues: { startsOn: addDays(today, 14), endsOn: addDays(today, 14 + 7 * 7), capacity: 12, minToRun: 1, timeZone: zone },
  });
  const [status, setStatus] = useState<string | null>(null);
  const e = formState.errors;
  const [startsOn, endsOn] = useWatch({ control, name: ['startsOn', 'endsOn'] });

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      const { id } = await createSession(course.id, values);
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
      navigate(paths.newClassTime(course.id, id), {
        state: { flash: { text: `Session added (${formatDateRange(values.startsOn, values.endsOn)}). Now add its class times.` } },
      });
    } catch (err) {
      if (notEducator(err)) return;
      if (err instanceof ApiError) {
        const known = Object.entries(err.fields).filter(([k]) => FIELDS.has(k));
        known.forEach(([k, message], i) => setError(k as keyof SessionInput, { type: 'server', message }, { shouldFocus: i === 0 }));
        setStatus(err.message);
      } else setStatus('The session could not be saved. Please try again.');
    }
  });

  const validRange = /^\d{4}-\d{2}-\d{2}$/.test(startsOn ?? '') && /^\d{4}-\d{2}-\d{2}$/.test(endsOn ?? '') && endsOn >= startsOn;
  const weeks = validRange ? Math.round((Date.parse(endsOn) - Date.parse(startsOn)) / (7 * 86400_000)) : 0;

  return (
    <div className="mx-auto max-w-3xl">
      <CourseCrumbs course={course} here="New session" />
      <PageHeader
        title="Add a session"
        subtitle="A session is one run of your course: its dates, how many learners it takes, and the time zone its class times are set in."
      />
      <form onSubmit={onSubmit} noValidate className="space-y-6">
        {status && <Alert tone="error">{status}</Alert>}
        <FormSection
          title="Dates"
          description={
            validRange
              ? `${formatDateRange(startsOn, endsOn)}${weeks >= 1 ? ` · about ${weeks} ${weeks === 1 ? 'week' : 'weeks'}` : ''}`
              : 'When the session starts and ends.'
          }
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Start date" type="date" min={today} error={e.startsOn?.message} {...register('startsOn')} />
            <Field
              label="End date"
              type="date"
              min={startsOn || today}
              error={e.endsOn?.message}
              hint="The dates stretch to cover the class times you add."
              {...register('endsOn')}
            />
          </div>
          <Controller
            control={control}
            name="timeZone"
            render={({ field }) => (
              <TimeZoneSelect
                label="Time zone"
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={e.timeZone?.message}
                hint={`Class times are entered and shown in this zone. Yours is ${timeZoneLabel(zone)}: type a city or "GMT+2" to find another.`}
              />
            )}
          />
        </FormSection>
        <FormSection title="Seats" description="Learners beyond the capacity join a waitlist and get the next free seat.">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Capacity"
              type="number"
              min={1}
              max={1000}
              inputMode="numeric"
              error={e.capacity?.message}
              hint="The most learners in this session (1-1000)."
              {...register('capacity', { valueAsNumber: true })}
            />
            <Field
              label="Minimum to run"
              type="number"
              min={1}
              inputMode="numeric"
              error={e.minToRun?.message}
              hint="Fewer enrolments than this and you may cancel."
              {...register('minToRun', { valueAsNumber: true })}
            />
          </div>
        </FormSection>
        <div className="flex flex-wrap justify-end gap-2">
          <ButtonLink to={paths.editCourse(course.id)} variant="secondary">
            Cancel
          </ButtonLink>
          <Button type="submit" loading={formState.isSubmitting}>
            Add session
          </Button>
        </div>
      </form>
    </div>
  );
}
