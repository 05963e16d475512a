import { z } from 'zod';
import { INT32_MAX, isoDate, isoDateTime, isTimeZone, str } from './input-schemas.js';
import { MIN_INSTALLMENT_CENTS, maxInstallmentsFor } from './payments.js';
import { formatMoney } from './money.js';
import {
  CATEGORY_IDS,
  CURRENCIES,
  ENROLMENT_STATUSES,
  FORMATS,
  LEVEL_IDS,
  MAX_PAGE_SIZE,
  REFUND_POLICY_IDS,
  SEARCH_SORTS,
  SESSION_STATUSES,
} from './courses.js';

/** Request and response schemas of the courses API. */
const text = (label: string, min: number, max: number) =>
  str({ error: `${label} is required` })
    .trim()
    .min(min, min <= 1 ? `${label} is required` : `${label} needs at least ${min} characters`)
    .max(max, `${label} is at most ${max} characters`);

const httpUrl = str()
  .trim()
  .max(500)
  .refine((v) => /^https?:\/\/\S+$/.test(v), 'Enter a link starting with https://');

/** An age bound of a course: a whole number of years 0-120, or none. */
const courseAge = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of years`)
    .min(0, `${label} must be between 0 and 120`)
    .max(120, `${label} must be between 0 and 120`)
    .nullable()
    .optional();

export const courseInput = z
  .object({
    title: text('Title', 3, 120),
    summary: text('Summary', 10, 280),
    description: text('Description', 1, 20_000),
    category: z.enum(CATEGORY_IDS, { error: 'Choose a category from the list' }),
    level: z.enum(LEVEL_IDS, { error: 'Choose a level from the list' }),
    language: str().trim().min(2, 'Language is required').max(40),
    audience: str().trim().max(200).optional().nullable(),
    format: z.enum(FORMATS, { error: 'Choose online or in person' }),
    city: str().trim().max(120).optional().nullable(),
    address: str().trim().max(300).optional().nullable(),
    priceCents: z
      .number({ error: 'Price is required' })
      .int('Price must be a whole number of cents')
      .min(0, 'Price cannot be negative')
      .max(10_000_000, 'Price is too high'),
    currency: z.enum(CURRENCIES, { error: 'Choose USD, EUR or GBP' }).default('usd'),
    installments: z
      .number()
      .int('Installments must be a whole number')
      .min(2, 'Installments must be between 2 and 24')
      .max(24, 'Installments must be between 2 and 24')
      .nullable()
      .optional(),
    refundPolicy: z.enum(REFUND_POLICY_IDS, { error: 'Choose a refund policy' }).default('moderate'),
    /** A paid session's freed seat is held this long for the first on its waitlist (ADR 0067). */
    waitlistHoldMinutes: z
      .number({ error: 'Choose how long a freed seat is held' })
      .int('The hold must be a whole number of minutes')
      .min(1, 'A freed seat is held for at least 1 minute')
      .max(10_080, 'A freed seat is held for at most 7 days')
      .default(1440),
    /** Whom the course is for by age (ADR 0074): whole years, either bound optional. */
    minAge: courseAge('The youngest age'),
    maxAge: courseAge('The oldest age'),
  })
  .superRefine((v, ctx) => {
    if (v.minAge != null && v.maxAge != null && v.minAge > v.maxAge)
      ctx.addIssue({ code: 'custom', path: ['maxAge'], message: `The oldest age must be at least the youngest (${v.minAge})` });
    if (v.format === 'in_person' && !v.city)
      ctx.addIssue({ code: 'custom', path: ['city'], message: 'City is required for an in-person course' });
    if (v.installments && v.priceCents === 0)
      ctx.addIssue({ code: 'custom', path: ['installments'], message: 'A free course cannot be paid in installments' });
    else if (v.installments && v.installments > maxInstallmentsFor(v.priceCents)) {
      const max = maxInstallmentsFor(v.priceCents);
      const min = formatMoney(MIN_INSTALLMENT_CENTS, v.currency ?? 'usd');
      ctx.addIssue({
        code: 'custom',
        path: ['installments'],
        message:
          max >= 2
            ? `Each monthly payment must be at least ${min}: at most ${max} installments at this price`
            : `Each monthly payment must be at least ${min}: this price is paid in one payment`,
      });
    }
  });
export type CourseInput = z.input<typeof courseInput>;

export const sessionInput = z
  .object({
    startsOn: isoDate('Start date'),
    endsOn: isoDate('End date'),
    capacity: z.number({ error: 'Capacity is required' }).int().min(1, 'Capacity must be at least 1').max(1000, 'Capacity is at most 1000'),
    minToRun: z.number().int().min(1, 'The minimum must be at least 1').max(1000, 'The minimum is at most 1000').default(1),
    timeZone: z.string().refine(isTimeZone, 'Unknown time zone'),
  })
  .superRefine((v, ctx) => {
    if (v.endsOn < v.startsOn)
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'The end date must be on or after the start date' });
    if (v.minToRun > v.capacity) ctx.addIssue({ code: 'custom', path: ['minToRun'], message: 'The minimum cannot exceed the capacity' });
  });
export type SessionInput = z.input<typeof sessionInput>;

export const sessionUpdate = z.object({
  capacity: z.number().int().min(1, 'Capacity must be at least 1').max(1000, 'Capacity is at most 1000').optional(),
  status: z.enum(['scheduled', 'cancelled']).optional(),
});

const classTimeFields = {
  startsAt: isoDateTime('Start must be a date and time'),
  endsAt: isoDateTime('End must be a date and time'),
  location: str().trim().max(300).optional().nullable(),
  meetingUrl: httpUrl.optional().nullable(),
};
export const classTimeInput = z
  .object({
    ...classTimeFields,
    /** Weekly repeats: 1 = just this one; 8 = every week for 8 weeks. */
    repeatWeeks: z.number().int().min(1, 'Repeat at least once').max(52, 'Repeat at most 52 weeks').default(1),
    /** Class times that end after the session's last day move that day: only when the educator said yes. */
    extendSession: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (new Date(v.endsAt) <= new Date(v.startsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
    else if (new Date(v.endsAt).getTime() - new Date(v.startsAt).getTime() > 12 * 3600_000) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'A class time lasts at most 12 hours' });
    }
  });
export type ClassTimeInput = z.input<typeof classTimeInput>;

/** Moving one class time: a new start and end; the place or link change only when given. */
export const classTimeMove = z.object(classTimeFields).superRefine((v, ctx) => {
  if (new Date(v.endsAt) <= new Date(v.startsAt))
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  else if (new Date(v.endsAt).getTime() - new Date(v.startsAt).getTime() > 12 * 3600_000) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'A class time lasts at most 12 hours' });
  }
});
export type ClassTimeMove = z.infer<typeof classTimeMove>;

export const reviewInput = z.object({
  rating: z
    .number({ error: 'Rating is required' })
    .int('Rating must be a whole number')
    .min(1, 'Rating must be between 1 and 5')
    .max(5, 'Rating must be between 1 and 5'),
  text: str().trim().max(4000, 'A review is at most 4000 characters').default(''),
});

export const searchQuery = z.object({
  q: str().trim().max(200).optional(),
  category: z.enum(CATEGORY_IDS, { error: 'Unknown category' }).optional(),
  level: z.enum(LEVEL_IDS).optional(),
  format: z.enum(FORMATS).optional(),
  city: str().trim().max(120).optional(),
  free: z.enum(['true', 'false']).optional(),
  minPrice: z.coerce.number().int().min(0).max(INT32_MAX, 'The price is too high').optional(),
  maxPrice: z.coerce.number().int().min(0).max(INT32_MAX, 'The price is too high').optional(),
  startsAfter: isoDate('Starts after').optional(),
  hasSeats: z.enum(['true', 'false']).optional(),
  /** A learner's age: courses whose age range includes it, and courses with no range (anyone may enrol in those). */
  age: z.coerce
    .number({ error: 'The age must be a whole number' })
    .int('The age must be a whole number')
    .min(0, 'The age cannot be negative')
    .max(120, 'The age must be 120 or less')
    .optional(),
  sort: z.enum(SEARCH_SORTS).default('relevance'),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `At most ${MAX_PAGE_SIZE} a page`).default(20),
});
export type SearchQuery = z.input<typeof searchQuery>;

export const classTimeView = z.object({
  id: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  location: z.string().nullable(),
  meetingUrl: z.string().nullable(),
});

export const sessionView = z.object({
  id: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  capacity: z.number(),
  minToRun: z.number(),
  timeZone: z.string(),
  status: z.enum(SESSION_STATUSES),
  seatsTaken: z.number(),
  seatsLeft: z.number(),
  waitlisted: z.number(),
  classTimes: z.array(classTimeView),
  /** The viewer's own enrolment in this session, if any. */
  myEnrolment: z
    .object({
      id: z.string(),
      status: z.enum(ENROLMENT_STATUSES),
      waitlistPosition: z.number().nullable(),
      /** A seat offered from a paid session's waitlist: held until then (ISO). */
      offerExpiresAt: z.string().nullable().optional(),
      /** An offer whose hold is over (by the server's clock) that its expiry job has not ended yet: no longer claimable. */
      offerEnded: z.boolean().optional(),
    })
    .nullable(),
  /** The seats of the viewer's learner profiles in this session (family accounts, ADR 0074), oldest first. */
  learnerEnrolments: z
    .array(
      z.object({
        learnerProfileId: z.string(),
        firstName: z.string(),
        id: z.string(),
        status: z.enum(ENROLMENT_STATUSES),
        waitlistPosition: z.number().nullable(),
        offerExpiresAt: z.string().nullable().optional(),
        offerEnded: z.boolean().optional(),
      }),
    )
    .optional(),
});

export const educatorCard = z.object({
  userId: z.string(),
  name: z.string(),
  headline: z.string().nullable(),
  bio: z.string().nullable(),
  profileImage: z.string(),
  ratingAvg: z.number(),
  ratingCount: z.number(),
});

export const reviewView = z.object({
  id: z.string(),
  rating: z.number(),
  text: z.string(),
  authorName: z.string(),
  authorImage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  mine: z.boolean(),
});

export const courseView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  category: z.string(),
  level: z.string(),
  language: z.string(),
  audience: z.string().nullable(),
  format: z.enum(FORMATS),
  city: z.string().nullable(),
  address: z.string().nullable(),
  coverImage: z.string().nullable(),
  priceCents: z.number(),
  currency: z.string(),
  installments: z.number().nullable(),
  refundPolicy: z.string(),
  waitlistHoldMinutes: z.number(),
  /** Whom the course is for by age (ADR 0074); null: no bound. */
  minAge: z.number().nullable(),
  maxAge: z.number().nullable(),
  status: z.enum(['draft', 'published', 'archived']),
  ratingAvg: z.number(),
  ratingCount: z.number(),
  publishedAt: z.string().nullable(),
  educator: educatorCard,
  isOwner: z.boolean(),
  sessions: z.array(sessionView),
  reviews: z.array(reviewView),
  canReview: z.boolean(),
  /** When the viewer, enrolled, may review: the start of their first class (null when not enrolled or no class is planned). */
  reviewOpensAt: z.string().nullable(),
  /** The viewer's learner profiles (family accounts, ADR 0074): ages today, and whether they fit the course's ages. */
  myLearners: z
    .array(z.object({ id: z.string(), firstName: z.string(), ageMin: z.number(), ageMax: z.number(), fitsAges: z.boolean() }))
    .optional(),
});
export type CourseView = z.infer<typeof courseView>;

export const courseCard = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  category: z.string(),
  level: z.string(),
  format: z.enum(FORMATS),
  city: z.string().nullable(),
  coverImage: z.string().nullable(),
  priceCents: z.number(),
  currency: z.string(),
  ratingAvg: z.number(),
  ratingCount: z.number(),
  educatorName: z.string(),
  nextStartOn: z.string().nullable(),
  seatsLeft: z.number(),
  /** Whom the course is for by age (ADR 0074); null: no bound. */
  minAge: z.number().nullable(),
  maxAge: z.number().nullable(),
});
export type CourseCard = z.infer<typeof courseCard>;

export const searchResult = z.object({
  items: z.array(courseCard),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  /**
   * How `total` was found: `exact`; `about` (estimated from word counts and a sample of the
   * matches: show "about N"); `atLeast` (counting stopped there: show "N+").
   */
  totalKind: z.enum(['exact', 'about', 'atLeast']),
  /** True when the words matched nothing exactly and typo-tolerant matching was used. */
  fuzzy: z.boolean(),
});
export type SearchResult = z.infer<typeof searchResult>;

/** GET /api/explore: four shelves, nearest first for the viewer's city. */
export const exploreResult = z.object({
  /** Featured placement (Educator Pro): featured educators' courses with a seat left, nearest and soonest first. */
  featured: z.array(courseCard),
  /** Soonest to start, with a seat left. */
  upcoming: z.array(courseCard),
  /** Best rated (Bayesian average: rating and number of reviews), with a session to come. */
  popular: z.array(courseCard),
  /** In person in the viewer's city, soonest first, then online (empty without a city). */
  nearYou: z.array(courseCard),
});
export type ExploreResult = z.infer<typeof exploreResult>;

const enrolmentMade = z.object({
  id: z.string(),
  sessionId: z.string(),
  status: z.enum(ENROLMENT_STATUSES),
  waitlistPosition: z.number().nullable(),
});

/** The holder among the learners chosen (family accounts, ADR 0074): "me", or a learner profile's id. */
export const HOLDER_LEARNER = 'me';
const learnerChoice = z.union([z.literal(HOLDER_LEARNER), z.uuid('Unknown learner')], { error: 'Unknown learner' });

/** POST .../enrol: whom (none: the account holder, as before family accounts). */
export const enrolInput = z
  .object({ learnerIds: z.array(learnerChoice).min(1, 'Choose at least one learner').max(20, 'At most 20 learners at once').optional() })
  .nullish();
/** POST .../drop: whose seat (none or "me": the account holder's own). */
export const dropInput = z.object({ learnerId: learnerChoice.optional() }).nullish();

export const enrolmentResult = z.object({
  /** The first seat taken (the only one unless several learners were enrolled). */
  enrolment: enrolmentMade,
  /** Every seat taken, one per learner chosen, in the order chosen (learnerProfileId null: the account holder). */
  enrolments: z.array(enrolmentMade.extend({ learnerProfileId: z.string().nullable(), learnerName: z.string().nullable() })),
  /** For a paid session: where the learner continues (the checkout). */
  next: z.string().nullable(),
  message: z.string(),
});
export type EnrolmentResult = z.infer<typeof enrolmentResult>;

/**
 * How a roster row's seat was paid: free (nothing to pay), paid (in full, or every
 * installment), installments (k of N paid so far), past due (an installment failed),
 * refunded (money given back, fully or in part).
 */
export const ROSTER_PAYMENT_STATUSES = ['free', 'paid', 'installments', 'past_due', 'refunded'] as const;
export const rosterPayment = z.object({
  status: z.enum(ROSTER_PAYMENT_STATUSES),
  /**
   * The roster's and the CSV's words for the purchase's state (payments/roster-payments.ts): "Paid", "Installments 2 of 3",
   * "Past due (1 of 3 paid)", "Refunded", "Partly refunded", "Refund pending", "Stopped (1 of 3 paid)", "Payment failed", "Not paid", "Free".
   */
  label: z.string(),
  paidInstallments: z.number().nullable(),
  installments: z.number().nullable(),
});
export type RosterPayment = z.infer<typeof rosterPayment>;

export const rosterRow = z.object({
  enrolmentId: z.string(),
  sessionId: z.string(),
  /** The account holding the seat: whom "Message" and the email reach (a learner profile's account holder). */
  learnerId: z.string(),
  /** The learner in the seat: the account holder's name, or their learner profile's first name (ADR 0074). */
  learnerName: z.string(),
  learnerEmail: z.string(),
  /** A learner profile's seat: its id, age today ("9", "8-10"), the account holder as the contact, its notes for the educator. */
  learnerProfileId: z.string().nullable(),
  learnerAge: z.string().nullable(),
  contactName: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(ENROLMENT_STATUSES),
  enrolledAt: z.string(),
  payment: rosterPayment,
  /** Waitlisted: the place in line (1: next to be offered or given a seat). */
  waitlistPosition: z.number().nullable(),
  /** Offered a seat (a paid session): held for them until then (ISO). */
  offerExpiresAt: z.string().nullable(),
});

/** The answer of GET /api/courses/:courseId/roster: every enrolment, with its session's start. */
export const rosterResult = z.object({ rows: z.array(rosterRow.extend({ sessionStartsOn: z.string() })) });
export type RosterRow = z.infer<typeof rosterResult>['rows'][number];

/** The answer of a drop: what was refunded (null: nothing was paid; `pending` until the provider did it). */
export const dropRefund = z.object({ amountCents: z.number(), currency: z.string(), full: z.boolean(), pending: z.boolean() });
export const dropResult = z.object({ ok: z.literal(true), message: z.string(), refund: dropRefund.nullable() });
export type DropResult = z.infer<typeof dropResult>;
export type DropRefund = z.infer<typeof dropRefund>;
