import { forwardRef, useEffect, useId, useRef, useState, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { CheckCircle2, X } from 'lucide-react';
import { ApiError } from '../../../lib/api';
import { Button } from '../../../components/ui/button';
import { useViewer } from '../../accounts/api';

/** Form controls and small pieces shared by the educator screens (course editor, onboarding). */

const controlClass = (error?: string) =>
  `block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 ${
    error ? 'border-red-500' : 'border-slate-300'
  }`;

function Described({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">{hint}</p>}
      {error && <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700">{error}</p>}
    </>
  );
}

const describedBy = (id: string, hint?: ReactNode, error?: string) => [hint && !error && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shows "n / max" under the field. */
  count?: number;
}

export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea({ label, error, hint, id, className = '', count, maxLength, ...props }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">{label}</label>
      <textarea ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, hint, error)} className={controlClass(error)} maxLength={maxLength} {...props} />
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0"><Described id={inputId} hint={hint} error={error} /></div>
        {count !== undefined && maxLength && <p className={`mt-1 shrink-0 text-xs ${count > maxLength ? 'text-red-700' : 'text-slate-500'}`} aria-hidden="true">{count} / {maxLength}</p>}
      </div>
    </div>
  );
});

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select({ label, error, hint, id, className = '', children, ...props }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">{label}</label>
      <select ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, hint, error)} className={`${controlClass(error)} pr-8`} {...props}>
        {children}
      </select>
      <Described id={inputId} hint={hint} error={error} />
    </div>
  );
});

/** A fieldset with a legend, for radio groups and grouped inputs. */
export function FieldGroup({ legend, hint, error, children, className = '' }: { legend: string; hint?: ReactNode; error?: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <fieldset className={className} aria-describedby={describedBy(id, hint, error)}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      <Described id={id} hint={hint} error={error} />
    </fieldset>
  );
}

/** A section of a long form: a title, a line of help, and its fields. */
export function FormSection({ title, description, children, id }: { title: string; description?: ReactNode; children: ReactNode; id?: string }) {
  // No aria-labelledby: the heading structures the page, and field labels stay unique.
  return (
    <section id={id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {description && <p className="mt-0.5 text-sm text-slate-600">{description}</p>}
      <div className="mt-5 space-y-5">{children}</div>
    </section>
  );
}

/** The one badge of the app, used by the editor too. */
export { Badge } from '../components/badge';

export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-slate-200/80 ${className}`} aria-hidden="true" />;
}

/** The loading state of an editor page: the shape of a header and two cards. */
export function EditorSkeleton({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="mx-auto max-w-5xl" role="status" aria-label={label}>
      <Skeleton className="h-8 w-2/3 sm:w-1/2" />
      <Skeleton className="mt-3 h-4 w-1/3" />
      <Skeleton className="mt-8 h-40 w-full rounded-2xl" />
      <Skeleton className="mt-6 h-64 w-full rounded-2xl" />
    </div>
  );
}

/** 403/404/400 from the API on a page's main resource: show the Not Found page. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 400);
}

export const isNotEducator = (error: unknown) => error instanceof ApiError && error.code === 'not_educator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string | undefined): id is string => !!id && UUID.test(id);

/** Educator-only screens: a user without an educator record goes to /educator/onboard. */
export function EducatorOnly({ children }: { children: ReactNode }) {
  const me = useViewer();
  const location = useLocation();
  if (!me.educator) return <Navigate to="/educator/onboard" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** A write answered "not_educator" (the record is gone): off to onboarding. */
export function useNotEducatorRedirect() {
  const navigate = useNavigate();
  return (error: unknown) => {
    if (!isNotEducator(error)) return false;
    navigate('/educator/onboard', { replace: true });
    return true;
  };
}

export interface Flash {
  tone?: 'success' | 'info';
  text: string;
}

/**
 * A message carried to the next page in the history state ("Course saved"), shown once as
 * a toast; it is cleared from the history entry so a reload does not show it again.
 */
export function useFlash(): [Flash | null, (f: Flash | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const incoming = (location.state as { flash?: Flash } | null)?.flash ?? null;
  const [flash, setFlash] = useState<Flash | null>(incoming);
  useEffect(() => {
    if (incoming) {
      setFlash(incoming);
      navigate(location.pathname + location.search, { replace: true, state: null });
    }
  }, [incoming, location.pathname, location.search, navigate]);
  return [flash, setFlash];
}

/** A polite toast in the corner that fades after a while (and can be closed). */
export function Toast({ flash, onClose }: { flash: Flash | null; onClose: () => void }) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => close.current(), 6000);
    return () => clearTimeout(t);
  }, [flash]);
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:justify-end">
      {flash && (
        <div role="status" className="pointer-events-auto flex max-w-md items-start gap-3 rounded-xl border border-emerald-200 bg-white p-4 text-sm text-slate-800 shadow-lg">
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
          <p className="min-w-0 flex-1">{flash.text}</p>
          <button type="button" onClick={onClose} className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800" aria-label="Dismiss">
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      )}
    </div>
  );
}

/** A modal confirmation (the native <dialog>: focus trap and Escape for free). */
export function ConfirmDialog({
  open, title, children, confirmLabel, cancelLabel = 'Keep it', tone = 'danger', busy, error, onConfirm, onClose,
}: {
  open: boolean; title: string; children: ReactNode; confirmLabel: string; cancelLabel?: string; tone?: 'danger' | 'primary'; busy?: boolean; error?: string | null;
  onConfirm: () => void; onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-0 text-slate-800 shadow-xl backdrop:bg-slate-900/40"
    >
      {open && (
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">{title}</h2>
          <div className="mt-2 text-sm text-slate-700">{children}</div>
          {error && <p role="alert" className="mt-3 text-sm font-medium text-red-700">{error}</p>}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>{cancelLabel}</Button>
            <Button type="button" variant={tone} onClick={onConfirm} loading={busy}>{confirmLabel}</Button>
          </div>
        </div>
      )}
    </dialog>
  );
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Why this file cannot be uploaded as a picture, or null. */
export function imageProblem(file: File): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'The picture must be a PNG, JPEG or WebP image';
  if (file.size > IMAGE_MAX_BYTES) return 'The picture is larger than 5 MB';
  return null;
}

/**
 * Uploads one file (multipart field "file") with progress reports (0-1). fetch() cannot
 * report upload progress, so this one call uses XMLHttpRequest; errors are ApiErrors as
 * everywhere else.
 */
export function uploadWithProgress<T>(url: string, file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'Could not reach Agora. Check your connection and try again.', 'network'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      const e = (body as { error?: { message?: string; code?: string; fields?: Record<string, string> } } | null)?.error;
      const fallback = xhr.status === 413 ? 'The picture is larger than 5 MB' : xhr.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The upload failed.';
      reject(new ApiError(xhr.status, e?.message ?? fallback, e?.code ?? 'error', e?.fields ?? {}));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** Every IANA zone the browser knows (with the browser's own zone and UTC guaranteed). */
export function timeZones(): string[] {
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const set = new Set(zones);
  set.add(browserTimeZone());
  set.add('UTC');
  return [...set].sort();
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A progress bar for uploads. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div>
      <div className="flex justify-between text-xs text-slate-600"><span>{label}</span><span>{pct}%</span></div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
