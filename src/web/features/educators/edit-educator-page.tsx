import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { EducatorProfile } from '@shared/educators-schemas';
import { isNotFound } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import NotFoundPage from '@web/components/not-found-page';
import { useViewer } from '@web/lib/viewer';
import { EditorSkeleton } from '@web/components/ui/skeleton';
import { Toast, type Flash } from '@web/components/ui/toast';
import { uploadWithProgress } from '@web/components/ui/upload';
import { educatorQuery, photoUploadUrl, updateEducator } from './api/educators';
import { EducatorForm, PhotoInput } from './educator-form';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { LoadError } from '@web/components/ui/load-error';

/** /educator/:educatorID/edit — only the educator themself; anyone else sees Not Found. */
export default function EditEducatorPage() {
  const { educatorID } = useParams();
  const me = useViewer();
  if (educatorID !== me.id) return <NotFoundPage />;
  if (!me.educator) return <Navigate to={paths.educatorOnboard} replace />;
  return <EditEducator id={me.id} />;
}

function EditEducator({ id }: { id: string }) {
  const { data, error, refetch } = useQuery(educatorQuery(id));
  if (error && !data) {
    if (isNotFound(error)) return <NotFoundPage />;
    return (
      <LoadError
        title="Your profile could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }
  if (!data) return <EditorSkeleton label="Loading your profile…" />;
  return <Editor profile={data} />;
}

function Editor({ profile }: { profile: EducatorProfile }) {
  const queryClient = useQueryClient();
  const [flash, setFlash] = useState<Flash | null>(null);
  return (
    <div className="mx-auto max-w-3xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link to={paths.educator(profile.userId)} className="hover:text-brand-700 hover:underline">
          Your educator profile
        </Link>
        <span aria-hidden="true"> / </span>
        <span>Edit</span>
      </nav>
      <PageHeader title="Edit your educator profile" subtitle="Your name and city come from your account settings." />
      <EducatorForm
        initial={{ headline: profile.headline ?? '', bio: profile.bio ?? '', subjects: profile.subjects, links: profile.links }}
        submitLabel="Save profile"
        photo={
          <PhotoInput
            current={profile.profileImage}
            upload={async (file, progress) => {
              const { profileImage } = await uploadWithProgress<{ profileImage: string }>(photoUploadUrl(profile.userId), file, progress);
              queryClient.setQueryData<EducatorProfile>(queryKeys.educator(profile.userId), (p) => (p ? { ...p, profileImage } : p));
              void queryClient.invalidateQueries({ queryKey: queryKeys.me });
              return profileImage;
            }}
          />
        }
        onSubmit={async (values) => {
          const { message } = await updateEducator(profile.userId, values);
          await queryClient.invalidateQueries({ queryKey: queryKeys.educator(profile.userId) });
          void queryClient.invalidateQueries({ queryKey: queryKeys.me });
          setFlash({ text: message });
        }}
        footer={
          <ButtonLink to={paths.educator(profile.userId)} variant="secondary">
            View profile
          </ButtonLink>
        }
      />
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}
