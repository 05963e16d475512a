import type { CurrentUser } from '@shared/accounts';

/**
 * What the server put in the page for its first render (decision 0024; written by
 * src/server/pages/bootstrap.ts): the viewer and the first answers of the page's GET
 * requests, by API path. Read once, on start; each answer is used once (a later request
 * for the same path asks the server again).
 */
interface Bootstrap {
  viewer?: CurrentUser | null;
  answers?: Record<string, unknown>;
}

const ELEMENT_ID = 'agora-bootstrap';

function read(): Bootstrap {
  if (typeof document === 'undefined') return {};
  const element = document.getElementById(ELEMENT_ID);
  if (!element) return {};
  element.remove();
  try {
    const parsed = JSON.parse(element.textContent ?? '') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Bootstrap) : {};
  } catch {
    return {};
  }
}

/** An answer not used this long after the page loaded is dropped: it is only the first render's. */
const ANSWER_LIFETIME_MS = 30_000;

const bootstrap = read();
const answers = new Map(Object.entries(bootstrap.answers ?? {}));
const loadedAt = Date.now();

/** Whether the page said who the viewer is, and who (null: a visitor). */
export function bootstrapViewer(): { known: true; viewer: CurrentUser | null } | { known: false } {
  return 'viewer' in bootstrap ? { known: true, viewer: bootstrap.viewer ?? null } : { known: false };
}

/** The page's embedded answer for a GET of this path, once; undefined when there is none (left). */
export function takeBootstrapAnswer<T>(path: string): T | undefined {
  if (!answers.has(path)) return undefined;
  if (Date.now() - loadedAt > ANSWER_LIFETIME_MS) {
    forgetBootstrapAnswers();
    return undefined;
  }
  const answer = answers.get(path) as T;
  answers.delete(path);
  return answer;
}

/** Drops the answers not used yet (the viewer signed out: they were theirs). */
export function forgetBootstrapAnswers() {
  answers.clear();
}
