import type { ErrorBody } from '@shared/errors';
import { takeBootstrapAnswer } from './bootstrap';

/** An API failure with the server's message (safe to show) and the fields at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly fields: Record<string, string> = {},
    readonly reasons: string[] = [],
  ) {
    super(message);
  }
}

const RETRY_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);
const MAX_RETRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type UnauthorizedHandler = (path: string) => void;
let onUnauthorized: UnauthorizedHandler = () => {};
/** The app decides what a 401 means (send the user to /login). */
export function setUnauthorizedHandler(fn: UnauthorizedHandler) {
  onUnauthorized = fn;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Makes a write safe to retry; the server treats repeats as one. */
  idempotencyKey?: string;
  /** Do not redirect to /login on 401 (pages that handle it themselves). */
  allowUnauthorized?: boolean;
  signal?: AbortSignal;
}

/**
 * The one API client. Retries only idempotent requests (GET, or a write with an
 * Idempotency-Key) on 408/425/429/5xx and network failures, with back-off
 * 200 ms x 2^attempt, at most 3 times.
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  // The first load's data came with the page (decision 0027).
  if (method === 'GET') {
    const embedded = takeBootstrapAnswer<T>(path);
    if (embedded !== undefined) return embedded;
  }
  const idempotent = method === 'GET' || !!opts.idempotencyKey;
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;

  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (idempotent && attempt < MAX_RETRIES) {
        await sleep(200 * 2 ** attempt);
        continue;
      }
      throw new ApiError(0, 'Could not reach Agora. Check your connection and try again.', 'network');
    }
    if (response.ok) {
      if (response.status === 204) return undefined as T;
      return (await response.json()) as T;
    }
    if (idempotent && RETRY_STATUSES.has(response.status) && attempt < MAX_RETRIES) {
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= 5 ? retryAfter * 1000 : 200 * 2 ** attempt);
      continue;
    }
    const error = await toApiError(response);
    if (response.status === 401 && !opts.allowUnauthorized) onUnauthorized(path);
    throw error;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let parsed: Partial<ErrorBody> | null = null;
  try {
    parsed = (await response.json()) as ErrorBody;
  } catch {
    parsed = null;
  }
  const e = parsed?.error;
  const fallback = response.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request could not be completed.';
  return new ApiError(response.status, e?.message ?? fallback, e?.code ?? 'error', e?.fields ?? {}, e?.reasons ?? []);
}

/** 403/404/400 from the API on a page's main resource: show the Not Found page. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 400);
}

export const isNotEducator = (error: unknown) => error instanceof ApiError && error.code === 'not_educator';
