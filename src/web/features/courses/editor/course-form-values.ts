import type { FieldErrors, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CURRENCIES, REFUND_POLICIES } from '@shared/courses';
import { courseInput, type CourseInput, type CourseView } from '@shared/courses-schemas';

/** The course editor's values (strings as the inputs hold them) and their translation to the API's course input. */
export interface CourseFormValues {
  title: string;
  summary: string;
  description: string;
  category: string;
  level: string;
  language: string;
  audience: string;
  /** Whom the course is for by age, in whole years: each optional (empty: no bound). */
  minAge: string;
  maxAge: string;
  format: 'online' | 'in_person';
  city: string;
  address: string;
  price: string;
  currency: (typeof CURRENCIES)[number];
  plan: 'once' | 'installments';
  installments: string;
  refundPolicy: (typeof REFUND_POLICIES)[number]['id'];
  /** How long a freed seat of a paid session is held for the first on its waitlist, in minutes. */
  waitlistHold: string;
}

/** The hold times the editor offers (minutes); a course's own other value is kept and listed too. */
export const WAITLIST_HOLDS = [60, 180, 360, 720, 1440, 2880, 4320, 10080];

export const LANGUAGES = [
  'English',
  'Spanish',
  'French',
  'German',
  'Italian',
  'Portuguese',
  'Dutch',
  'Polish',
  'Arabic',
  'Chinese',
  'Japanese',
  'Korean',
  'Hindi',
];
export const CURRENCY_SYMBOL: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };
const PRICE_RE = /^\d{1,6}(?:[.,]\d{1,2})?$/;

/** The form's first values: the course's, or a new course's (in the educator's city). */
export function defaults(course?: CourseView, city?: string | null): CourseFormValues {
  if (!course) {
    return {
      title: '',
      summary: '',
      description: '',
      category: '',
      level: 'all',
      language: 'English',
      audience: '',
      minAge: '',
      maxAge: '',
      format: 'online',
      city: city ?? '',
      address: '',
      price: '0',
      currency: 'usd',
      plan: 'once',
      installments: '3',
      refundPolicy: 'moderate',
      waitlistHold: '1440',
    };
  }
  return {
    title: course.title,
    summary: course.summary,
    description: course.description,
    category: course.category,
    level: course.level,
    language: course.language,
    audience: course.audience ?? '',
    minAge: course.minAge === null ? '' : String(course.minAge),
    maxAge: course.maxAge === null ? '' : String(course.maxAge),
    format: course.format,
    city: course.city ?? '',
    address: course.address ?? '',
    price: course.priceCents % 100 === 0 ? String(course.priceCents / 100) : (course.priceCents / 100).toFixed(2),
    currency: (CURRENCIES as readonly string[]).includes(course.currency) ? (course.currency as CourseFormValues['currency']) : 'usd',
    plan: course.installments ? 'installments' : 'once',
    installments: String(course.installments ?? 3),
    refundPolicy: REFUND_POLICIES.find((r) => r.id === course.refundPolicy)?.id ?? 'moderate',
    waitlistHold: String(course.waitlistHoldMinutes ?? 1440),
  };
}

/** The price field in cents; NaN when it is not a price. */
export const priceCents = (price: string) => {
  const t = price.trim();
  if (!t) return 0;
  return PRICE_RE.test(t) ? Math.round(Number(t.replace(',', '.')) * 100) : Number.NaN;
};

/** An age field as the API's bound: empty is none; anything else a number the schema checks (NaN: "must be a number"). */
const ageBound = (text: string) => (text.trim() ? Number(text.trim()) : null);

/** The form's values as the API's course input (price in cents, installments only when paid). */
export function toCourseInput(v: CourseFormValues): CourseInput {
  const cents = priceCents(v.price);
  return {
    title: v.title,
    summary: v.summary,
    description: v.description,
    category: v.category as CourseInput['category'],
    level: v.level as CourseInput['level'],
    language: v.language,
    audience: v.audience.trim() || null,
    minAge: ageBound(v.minAge),
    maxAge: ageBound(v.maxAge),
    format: v.format,
    city: v.city.trim() || null,
    address: v.format === 'in_person' ? v.address.trim() || null : null,
    priceCents: Number.isNaN(cents) ? 0 : cents,
    currency: v.currency,
    installments: v.plan === 'installments' && cents > 0 ? Number(v.installments) : null,
    refundPolicy: v.refundPolicy,
    waitlistHoldMinutes: Number(v.waitlistHold) || 1440,
  };
}

/** The API's field names -> the form's. */
export const FIELD_OF: Record<string, keyof CourseFormValues> = { priceCents: 'price', waitlistHoldMinutes: 'waitlistHold' };
export const FORM_FIELDS = new Set<string>(Object.keys(defaults()));

const zod = zodResolver(courseInput);

/** Client-side validation with the shared `courseInput` schema (the server's own rules). */
export const courseResolver: Resolver<CourseFormValues> = async (values, context, options) => {
  const result = await zod(toCourseInput(values), context, options as unknown as Parameters<typeof zod>[2]);
  const errors: FieldErrors<CourseFormValues> = {};
  for (const [key, error] of Object.entries(result.errors)) {
    const name = FIELD_OF[key] ?? key;
    if (FORM_FIELDS.has(name) && error && 'message' in error)
      errors[name as keyof CourseFormValues] = { type: String(error.type ?? 'validate'), message: String(error.message) };
  }
  if (Number.isNaN(priceCents(values.price))) errors.price = { type: 'format', message: 'Enter the price as a number, like 49 or 49.50' };
  if (!values.category) errors.category = { type: 'required', message: 'Choose a category' };
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};
