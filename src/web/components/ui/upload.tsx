import { ApiError } from '@web/lib/api';

/** Picture uploads: the accepted files, an upload with progress, and its progress bar. */

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
      const fallback =
        xhr.status === 413
          ? 'The picture is larger than 5 MB'
          : xhr.status >= 500
            ? 'Something went wrong on our side. Please try again.'
            : 'The upload failed.';
      reject(new ApiError(xhr.status, e?.message ?? fallback, e?.code ?? 'error', e?.fields ?? {}));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** A progress bar for uploads. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div>
      <div className="flex justify-between text-xs text-slate-600">
        <span>{label}</span>
        <span>{pct}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
