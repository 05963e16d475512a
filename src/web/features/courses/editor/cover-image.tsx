import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ImagePlus } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormSection } from '@web/components/ui/inputs';
import { ProgressBar, imageProblem, IMAGE_TYPES, uploadWithProgress } from '@web/components/ui/upload';
import { queryKeys } from '@web/lib/query-keys';
import { coverUploadUrl } from '../api/courses';

/** New course: the cover is chosen now and uploaded right after the course is created. */
export function CoverPicker({ file, onFile }: { file: File | null; onFile: (f: File | null) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  // The preview's object URL is made where the file is picked, and released when replaced or unmounted.
  const [url, setUrl] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  const pick = (f: File | null) => {
    setUrl(f && URL.createObjectURL(f));
    onFile(f);
  };
  return (
    <FormSection title="Cover image" description="A 16:9 picture shown on the course page and in search. PNG, JPEG or WebP, up to 5 MB.">
      <CoverFrame src={url} />
      <div className="flex flex-wrap items-center gap-3">
        <FileButton
          label={file ? 'Choose another cover image' : 'Choose a cover image'}
          onFile={(f) => {
            const p = imageProblem(f);
            setProblem(p);
            if (!p) pick(f);
          }}
        />
        {file && (
          <Button type="button" variant="ghost" onClick={() => pick(null)}>
            Remove
          </Button>
        )}
        {file && <span className="text-sm text-slate-600">Uploaded when you save.</span>}
      </div>
      {problem && <Alert tone="error">{problem}</Alert>}
    </FormSection>
  );
}

/** Existing course: the cover uploads at once, with its progress. */
export function CoverUploader({ course }: { course: CourseView }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  useEffect(
    () => () => {
      if (local) URL.revokeObjectURL(local);
    },
    [local],
  );

  async function onFile(file: File) {
    setMessage(null);
    const p = imageProblem(file);
    if (p) return setMessage({ tone: 'error', text: p });
    setLocal(URL.createObjectURL(file));
    setProgress(0);
    try {
      const { coverImage } = await uploadWithProgress<{ coverImage: string }>(coverUploadUrl(course.id), file, setProgress);
      queryClient.setQueryData<CourseView>(queryKeys.course(course.id), (c) => (c ? { ...c, coverImage } : c));
      setLocal(null);
      setMessage({ tone: 'success', text: 'The cover image has been updated' });
    } catch (err) {
      setLocal(null);
      setMessage({ tone: 'error', text: err instanceof ApiError ? err.message : 'The upload failed' });
    } finally {
      setProgress(null);
    }
  }

  return (
    <FormSection title="Cover image" description="A 16:9 picture shown on the course page and in search. PNG, JPEG or WebP, up to 5 MB.">
      <CoverFrame src={local ?? course.coverImage} busy={progress !== null} />
      {progress !== null && <ProgressBar value={progress} label="Uploading the cover image" />}
      <FileButton
        label={course.coverImage ? 'Change the cover image' : 'Upload a cover image'}
        disabled={progress !== null}
        onFile={onFile}
      />
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </FormSection>
  );
}

function CoverFrame({ src, busy }: { src: string | null; busy?: boolean }) {
  return (
    <div className="relative aspect-[16/9] w-full max-w-xl overflow-hidden rounded-xl border border-slate-200 bg-gradient-to-br from-brand-50 to-slate-100">
      {src ? (
        <img src={src} alt="Cover preview" className={`h-full w-full object-cover ${busy ? 'opacity-60' : ''}`} />
      ) : (
        <div className="flex h-full flex-col items-center justify-center gap-2 text-brand-700">
          <ImagePlus className="h-10 w-10 opacity-70" aria-hidden="true" />
          <span className="text-sm text-slate-600">No cover image yet</span>
        </div>
      )}
    </div>
  );
}

function FileButton({ label, onFile, disabled }: { label: string; onFile: (f: File) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <label
      className={`inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500 ${disabled ? 'pointer-events-none opacity-60' : ''}`}
    >
      <ImagePlus className="h-4 w-4" aria-hidden="true" />
      {label}
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        className="sr-only"
        disabled={disabled}
        onChange={(ev) => {
          const f = ev.target.files?.[0];
          if (f) onFile(f);
          if (input.current) input.current.value = '';
        }}
      />
    </label>
  );
}
