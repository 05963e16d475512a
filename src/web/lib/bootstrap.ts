import type { CurrentUser } from '@shared/accounts';

/**
 * What the server put in the page for its first render (decision 0027; written by
 * src/server/pages/bootstrap.ts): the viewer and the first answers of the page's GET
 * requests, by API path. Read once, on start (kept small: it is in every page's first script).
 */
interface Bootstrap {
  viewer?: CurrentUser | null;
  answers?: Record<string, unknown>;
}

const element = typeof document === 'undefined' ? null : document.getElementById('agora-bootstrap');
element?.remove();
let bootstrap: Bootstrap = {};
try {
  bootstrap = (JSON.parse(element?.textContent || '{}') as Bootstrap | null) ?? {};
} catch {
  // A broken block: everything is fetched.
}
let answers = bootstrap.answers ?? {};
/** The answers are the first render's: one not used this soon after the page loaded is not used. */
const answersUntil = Date.now() + 30_000;

/** The viewer the page was served for (null: a visitor); undefined when the page did not say. */
export const bootstrapViewer = () => bootstrap.viewer;

/** The page's embedded answer for a GET of this path, once; undefined when there is none (left). */
export function takeBootstrapAnswer<T>(path: string): T | undefined {
  const answer = answers[path] as T | undefined;
  delete answers[path];
  return Date.now() < answersUntil ? answer : undefined;
}

/** Drops the answers not used yet (the viewer signed out: they were theirs). */
export function forgetBootstrapAnswers() {
  answers = {};
}
