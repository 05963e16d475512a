import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AnalyticsQuery, AnalyticsResult } from '../../shared/analytics-schemas.js';
import { readRange } from './range.js';
import { checkAccess, loadScope } from './scope.js';
import { computeAnalytics } from './figures.js';

/**
 * Educator analytics (issue 13), computed at read time from the tables of record
 * (enrolment, purchase, payment, review, course_session) and the daily view counts:
 * docs/decisions/0021-analytics.md says why, and what the bench measured. Each source is
 * read once, grouped per course and UTC day over both periods (the current one and the
 * one before it); every figure, series and table row is summed from those daily rows,
 * so they agree with each other and, to the cent, with the payment table.
 */
export { analyticsScope, type AnalyticsScope } from './scope.js';
export { conversionOf } from './figures.js';

/**
 * The figures of a large catalogue (LARGE_CATALOGUE courses or more) are kept for CACHE_MS
 * per app process and answered from there (with their `asOf`); everyone else's are always
 * computed afresh. Derived data only: a lost cache costs one computation (ADR 0021).
 */
const CACHE_MS = 30_000;
/** A catalogue this large has its figures kept (a deterministic rule: no test or small educator ever sees cached figures). */
const LARGE_CATALOGUE = 100;
const CACHE_MAX = 200;
interface Cached {
  at: number;
  value: AnalyticsResult;
  /** The answer as sent (serialized once). */
  json: string;
}
const caches = new WeakMap<object, Map<string, Cached>>();

/** The figures and their JSON (the route sends the JSON as is, cached or computed). */
export async function analyticsAnswer(
  app: AppServices,
  viewer: Viewer,
  educatorId: string,
  query: AnalyticsQuery,
  opts: { fresh?: boolean } = {},
): Promise<Cached> {
  const range = readRange(query);
  const courseId = await checkAccess(app, viewer, educatorId, query.course);
  let cache = caches.get(app.database);
  if (!cache) caches.set(app.database, (cache = new Map()));
  const key = `${educatorId}|${range.from}|${range.to}|${courseId ?? ''}`;
  const hit = cache.get(key);
  if (hit && !opts.fresh && Date.now() - hit.at < CACHE_MS) return hit;
  const started = Date.now();
  const scope = await loadScope(app, educatorId, courseId);
  const value = await computeAnalytics(app, scope, range);
  const answer = { at: started, value, json: JSON.stringify(value) };
  if (scope.courses.length >= LARGE_CATALOGUE) {
    cache.delete(key);
    cache.set(key, answer);
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return answer;
}

export async function getAnalytics(app: AppServices, viewer: Viewer, educatorId: string, query: AnalyticsQuery): Promise<AnalyticsResult> {
  return (await analyticsAnswer(app, viewer, educatorId, query)).value;
}
