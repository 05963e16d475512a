import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import type { CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { useViewer } from '@web/lib/viewer';
import { coverUploadUrl, createCourse, publishCourse, updateCourse } from '../api/courses';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { uploadWithProgress } from '@web/components/ui/upload';
import { useNotEducatorRedirect } from '@web/components/educator-only';
import { type Flash } from '@web/components/ui/toast';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useFormStatus } from '@web/lib/form-status';
import { FIELD_OF, FORM_FIELDS, courseResolver, defaults, toCourseInput, type CourseFormValues } from './course-form-values';
import { BasicsSection, DescriptionSection, FormatSection, PriceSection, SaveBar } from './course-form-sections';
import { CoverPicker, CoverUploader } from './cover-image';
import { useLeaveGuard } from './use-leave-guard';

type Intent = 'draft' | 'publish';

/**
 * The course editor: every field of a course, a live Markdown preview of the description,
 * the cover image. Creates the course (then goes to its edit page) or saves an existing one.
 */
export function CourseForm({ course, onSaved }: { course?: CourseView; onSaved?: (flash: Flash) => void }) {
  const me = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notEducator = useNotEducatorRedirect();
  const form = useForm<CourseFormValues>({
    defaultValues: defaults(course, me.city),
    resolver: courseResolver,
    mode: 'onTouched',
  });
  const { handleSubmit, formState, setError, reset } = form;
  const [status, setStatus] = useFormStatus<{ tone: 'error' | 'info'; text: ReactNode; validation?: boolean }>(
    Object.keys(formState.errors).length,
  );
  const [intent, setIntent] = useState<Intent | null>(null);
  const [coverFile, setCoverFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<number | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const { blocker, allowLeaving } = useLeaveGuard(formState);

  // A server's answer scrolls into view (invalid fields get the focus themselves).
  useEffect(() => {
    if (status && !status.validation) errorRef.current?.focus();
  }, [status]);

  const showApiError = (err: unknown) => {
    if (notEducator(err)) return;
    if (err instanceof ApiError) {
      for (const [key, message] of Object.entries(err.fields)) {
        const name = FIELD_OF[key] ?? key;
        if (FORM_FIELDS.has(name)) setError(name as keyof CourseFormValues, { type: 'server', message });
      }
      setStatus({ tone: 'error', text: err.message });
    } else setStatus({ tone: 'error', text: 'The course could not be saved. Please try again.' });
  };

  const submit = (which: Intent) =>
    handleSubmit(
      async (values) => {
        setIntent(which);
        setStatus(null);
        const input = toCourseInput(values);
        try {
          if (!course) {
            const { id } = await createCourse(input);
            let coverFailed: string | null = null;
            if (coverFile) {
              setUpload(0);
              try {
                await uploadWithProgress(coverUploadUrl(id), coverFile, setUpload);
              } catch (err) {
                coverFailed = err instanceof ApiError ? err.message : 'The cover image could not be uploaded';
              }
            }
            reset(values);
            allowLeaving();
            void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
            void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
            const text =
              which === 'publish'
                ? 'Your course is saved as a draft. Add a session with its class times, then publish it.'
                : 'Draft saved. Next, add a session so learners can enrol.';
            navigate(paths.editCourse(id), {
              state: {
                flash: { text: coverFailed ? `${text} (${coverFailed}: try again below.)` : text, tone: 'success' },
                needsSession: which === 'publish',
              },
            });
            return;
          }
          await updateCourse(course.id, input);
          reset(values);
          if (which === 'publish') {
            try {
              await publishCourse(course.id);
            } catch (err) {
              await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
              if (err instanceof ApiError && err.code === 'no_sessions') {
                setStatus({
                  tone: 'info',
                  text: (
                    <>
                      Your changes are saved. To publish, add a session first: learners enrol in a session.{' '}
                      <Link to={paths.newSession(course.id)} className="font-semibold underline">
                        Add a session
                      </Link>
                    </>
                  ),
                });
                return;
              }
              throw err;
            }
          }
          await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
          void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
          onSaved?.({ tone: 'success', text: which === 'publish' ? 'Your course is published' : 'Changes saved' });
        } catch (err) {
          showApiError(err);
        } finally {
          setIntent(null);
          setUpload(null);
        }
      },
      () => setStatus({ tone: 'error', text: 'Please correct the fields marked below.', validation: true }),
    );

  return (
    <form
      onSubmit={(ev) => void submit('draft')(ev)}
      noValidate
      className="space-y-6"
      aria-label={course ? 'Course details' : 'New course'}
    >
      {status && (
        <div ref={errorRef} tabIndex={-1} className="outline-none">
          <Alert tone={status.tone}>{status.text}</Alert>
        </div>
      )}

      <BasicsSection form={form} />
      <DescriptionSection form={form} />
      <FormatSection form={form} />
      <PriceSection form={form} />
      {course ? <CoverUploader course={course} /> : <CoverPicker file={coverFile} onFile={setCoverFile} />}
      <SaveBar
        course={course}
        upload={upload}
        submitting={formState.isSubmitting}
        intent={intent}
        onPublish={(ev) => void submit('publish')(ev)}
      />

      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        cancelLabel="Stay on this page"
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        <p>Your changes to this course have not been saved yet.</p>
      </ConfirmDialog>
    </form>
  );
}
