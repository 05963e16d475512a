import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Award } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';
import { Button } from '@web/components/ui/button';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import type { Flash } from '@web/components/ui/toast';
import { certificateRuleQuery, putCertificateRule } from '../api/certificate-rule';

/**
 * "Certificate of completion: off / at least N % of classes attended" (issue 25). Saved on
 * its own: certificates already issued keep what they said.
 */
export function CertificatePanel({ courseId, onFlash }: { courseId: string; onFlash: (f: Flash) => void }) {
  const q = useQuery(certificateRuleQuery(courseId));
  return (
    <section aria-labelledby="certificate-heading" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="certificate-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <Award className="h-5 w-5 text-brand-700" aria-hidden="true" /> Certificate of completion
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Issued as a PDF after a session's last class to each learner who attended enough of its classes (present or late), with a code
        anyone can verify.
      </p>
      {q.isPending ? (
        <div role="status" aria-label="Loading the certificate setting" className="mt-4">
          <Skeleton className="h-10 w-64" />
        </div>
      ) : q.isError ? (
        <LoadError
          title="The certificate setting could not be loaded"
          error={q.error}
          onRetry={() => void q.refetch()}
          className="mt-4 space-y-3"
        />
      ) : (
        <RuleForm key={String(q.data.minPercent)} courseId={courseId} initial={q.data.minPercent} onFlash={onFlash} />
      )}
    </section>
  );
}

function RuleForm({ courseId, initial, onFlash }: { courseId: string; initial: number | null; onFlash: (f: Flash) => void }) {
  const queryClient = useQueryClient();
  const [on, setOn] = useState(initial !== null);
  const [percent, setPercent] = useState(String(initial ?? 80));
  const save = useMutation({
    mutationFn: () => putCertificateRule(courseId, { minPercent: on ? Number(percent) : null }),
    onSuccess: async (rule) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.certificateRule(courseId) });
      onFlash({
        text: rule.minPercent === null ? 'No certificate for this course' : `Certificate at ${rule.minPercent} % of classes attended`,
      });
    },
  });
  const fieldError = save.error instanceof ApiError ? save.error.fields.minPercent : undefined;
  return (
    <form
      className="mt-4 space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <fieldset>
        <legend className="sr-only">Certificate of completion</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="certificate" checked={!on} onChange={() => setOn(false)} className="h-4 w-4" /> Off
          </label>
          <label className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="certificate" checked={on} onChange={() => setOn(true)} className="h-4 w-4" /> On, for learners who
            attended enough classes
          </label>
        </div>
      </fieldset>
      {on && (
        <div>
          <label htmlFor="certificate-percent" className="block text-sm font-medium text-slate-800">
            Share of classes attended (%)
          </label>
          <input
            id="certificate-percent"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
            aria-invalid={!!fieldError || undefined}
            aria-describedby={fieldError ? 'certificate-percent-error' : undefined}
            className="mt-1 block w-32 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
          {fieldError && (
            <p id="certificate-percent-error" className="mt-1 text-xs font-medium text-red-700">
              {fieldError}
            </p>
          )}
        </div>
      )}
      {save.error && !fieldError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {save.error instanceof ApiError ? save.error.message : 'The setting could not be saved. Please try again.'}
        </p>
      )}
      <Button type="submit" variant="secondary" loading={save.isPending}>
        Save certificate setting
      </Button>
    </form>
  );
}
