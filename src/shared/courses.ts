/** Course vocabulary shared by the server and the web app (no runtime dependencies). */
import { formatMoney } from './money.js';

export const CATEGORIES = [
  { id: 'arts', label: 'Arts & Crafts' },
  { id: 'business', label: 'Business' },
  { id: 'coding', label: 'Coding' },
  { id: 'cooking', label: 'Cooking' },
  { id: 'languages', label: 'Languages' },
  { id: 'mathematics', label: 'Mathematics' },
  { id: 'music', label: 'Music' },
  { id: 'science', label: 'Science' },
  { id: 'sports', label: 'Sports & Fitness' },
  { id: 'wellbeing', label: 'Wellbeing' },
  { id: 'writing', label: 'Writing' },
  { id: 'other', label: 'Other' },
] as const;
export type CategoryId = (typeof CATEGORIES)[number]['id'];
export const CATEGORY_IDS = CATEGORIES.map((c) => c.id) as [CategoryId, ...CategoryId[]];

export const LEVELS = [
  { id: 'all', label: 'All levels' },
  { id: 'beginner', label: 'Beginner' },
  { id: 'intermediate', label: 'Intermediate' },
  { id: 'advanced', label: 'Advanced' },
] as const;
export const LEVEL_IDS = LEVELS.map((l) => l.id) as ['all', 'beginner', 'intermediate', 'advanced'];

export const FORMATS = ['online', 'in_person'] as const;
export const COURSE_STATUSES = ['draft', 'published', 'archived'] as const;
export const SESSION_STATUSES = ['scheduled', 'full', 'running', 'completed', 'cancelled'] as const;
/** past_due: an installment failed; the seat is held until the provider gives up (payments). */
export const ENROLMENT_STATUSES = ['active', 'waitlisted', 'offered', 'dropped', 'completed', 'pending_payment', 'past_due'] as const;
export const CURRENCIES = ['usd', 'eur', 'gbp'] as const;

/** The refund policies: defined once, in refund-terms.ts. */
export { REFUND_POLICIES, REFUND_POLICY_IDS } from './refund-terms.js';

export const SEARCH_SORTS = ['relevance', 'soonest', 'price', 'rating'] as const;

/** Courses per page of the catalogue (/course/search). */
export const CATALOGUE_PAGE_SIZE = 12;
/**
 * The API request of the catalogue's first page without filters, exactly as the web app
 * makes it (src/web/features/courses/api/search.ts): the server embeds its answer in the
 * page /course/search (decision 0027).
 */
export const CATALOGUE_FIRST_PAGE_API = `/api/courses/search?sort=relevance&page=1&pageSize=${CATALOGUE_PAGE_SIZE}`;
export const MAX_PAGE_SIZE = 100;

export function formatPrice(cents: number, currency: string): string {
  if (cents === 0) return 'Free';
  return formatMoney(cents, currency);
}

/** Whom a course is for by age (ADR 0074): "Ages 8-12", "Ages 8+", "Ages up to 12", "Age 8"; null when it sets none. */
export function courseAgesText(minAge: number | null | undefined, maxAge: number | null | undefined): string | null {
  const min = minAge ?? null;
  const max = maxAge ?? null;
  if (min === null && max === null) return null;
  if (min !== null && max !== null) return min === max ? `Age ${min}` : `Ages ${min}-${max}`;
  return min !== null ? `Ages ${min}+` : `Ages up to ${max}`;
}
