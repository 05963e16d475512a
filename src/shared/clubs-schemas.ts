import { z } from 'zod';
import { isCalendarDate, isTimeZone, MAX_YEAR, MIN_YEAR, str } from './input-schemas.js';
import { repeatDates } from './time.js';
import {
  CLUB_CATEGORY_IDS,
  CLUB_PAGE_SIZE,
  CLUB_ROLES,
  CLUB_SORTS,
  CLUB_VISIBILITIES,
  EVENT_STATUSES,
  MAX_REPEATS,
  MEMBER_ACTIONS,
  MEMBERSHIP_STATES,
  RSVP_STATUSES,
} from './clubs.js';

/** Request and response schemas of the clubs API (/api/clubs/...). */
const text = (label: string, min: number, max: number) =>
  str({ error: `${label} is required` })
    .trim()
    .min(min, min <= 1 ? `${label} is required` : `${label} needs at least ${min} characters`)
    .max(max, `${label} is at most ${max} characters`);

const optionalText = (label: string, max: number) =>
  str()
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

const httpUrl = str()
  .trim()
  .max(500, 'The link is at most 500 characters')
  .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), 'Enter a link starting with https://')
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

export const clubInput = z
  .object({
    name: text('Name', 3, 80),
    description: text('Description', 10, 10_000),
    category: z.enum(CLUB_CATEGORY_IDS, { error: 'Choose a category from the list' }),
    city: optionalText('City', 120),
    online: z.boolean({ error: 'Say whether the club meets online' }).default(false),
    visibility: z.enum(CLUB_VISIBILITIES, { error: 'Choose public or approval' }).default('public'),
    joinQuestion: optionalText('The join question', 300),
    rules: optionalText('Rules', 5000).transform((v) => v ?? ''),
  })
  .superRefine((v, ctx) => {
    if (!v.online && !v.city) ctx.addIssue({ code: 'custom', path: ['city'], message: 'Enter a city, or say the club meets online' });
  });
export type ClubInput = z.input<typeof clubInput>;

/** A wall-clock time in the organiser's zone, "2027-03-09T19:00" (no offset: the zone says it). */
const LOCAL = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;
export const localDateTime = (label: string) =>
  str({ error: `${label} is required` })
    .regex(LOCAL, `${label} must be a date and time (YYYY-MM-DDTHH:MM)`)
    .refine((v) => isCalendarDate(v.slice(0, 10)), `${label} must be a real date between ${MIN_YEAR} and ${MAX_YEAR}`);

const capacity = z
  .number({ error: 'Capacity must be a number' })
  .int('Capacity must be a whole number')
  .min(1, 'Capacity must be at least 1')
  .max(10_000, 'Capacity is at most 10,000')
  .nullable()
  .optional()
  .transform((v) => v ?? null);

const eventFields = {
  title: text('Title', 3, 120),
  description: optionalText('Description', 10_000).transform((v) => v ?? ''),
  startsAt: localDateTime('Start'),
  endsAt: localDateTime('End'),
  timeZone: str({ error: 'Time zone is required' }).refine(isTimeZone, 'Unknown time zone'),
  onlineUrl: httpUrl,
  address: optionalText('Address', 300),
  capacity,
  rsvpDeadline: localDateTime('RSVP deadline').optional().nullable(),
};

const eventChecks = (
  v: { startsAt: string; endsAt: string; onlineUrl: string | null; address: string | null; rsvpDeadline?: string | null },
  ctx: z.RefinementCtx,
) => {
  if (v.endsAt <= v.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  if (!v.onlineUrl && !v.address) ctx.addIssue({ code: 'custom', path: ['address'], message: 'Enter an address or an online link' });
  if (v.rsvpDeadline && v.rsvpDeadline > v.startsAt)
    ctx.addIssue({ code: 'custom', path: ['rsvpDeadline'], message: 'The RSVP deadline must be before the start' });
};

/** A repeat ending on a date: not before the first event, and no more events than allowed. */
const repeatChecks = (v: { startsAt: string; repeat?: z.output<typeof repeatInput> | null }, ctx: z.RefinementCtx) => {
  const until = v.repeat?.until;
  const first = v.startsAt.slice(0, 10);
  if (!v.repeat || !until || !isCalendarDate(first)) return;
  if (until < first)
    ctx.addIssue({ code: 'custom', path: ['repeat', 'until'], message: 'The end date must be on or after the first event' });
  else if (repeatDates(first, v.repeat, MAX_REPEATS + 1).length > MAX_REPEATS)
    ctx.addIssue({ code: 'custom', path: ['repeat', 'until'], message: `At most ${MAX_REPEATS} events: choose an earlier end date` });
};

export const repeatInput = z
  .object({
    /** weekly: every `interval` weeks; monthly: the same weekday of the month ("every second Tuesday"). */
    frequency: z.enum(['weekly', 'monthly'], { error: 'Choose weekly or monthly' }),
    interval: z
      .number({ error: 'Every 1 to 4 weeks' })
      .int('Every 1 to 4 weeks')
      .min(1, 'Every 1 to 4 weeks')
      .max(4, 'Every 1 to 4 weeks')
      .default(1),
    /** Ends after this many events, or (instead) on the last date not after `until`. */
    count: z
      .number({ error: 'How many events?' })
      .int('A whole number of events')
      .min(1, 'At least 1 event')
      .max(MAX_REPEATS, `At most ${MAX_REPEATS} events`)
      .optional()
      .nullable(),
    until: str({ error: 'The end date must be a date (YYYY-MM-DD)' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'The end date must be a date (YYYY-MM-DD)')
      .refine(isCalendarDate, `The end date must be a real date between ${MIN_YEAR} and ${MAX_YEAR}`)
      .optional()
      .nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.count == null && !v.until) ctx.addIssue({ code: 'custom', path: ['count'], message: 'Give a number of events or an end date' });
    if (v.count != null && v.until)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'Give a number of events or an end date, not both' });
  });

export const eventInput = z
  .object({ ...eventFields, repeat: repeatInput.optional().nullable() })
  .superRefine(eventChecks)
  .superRefine(repeatChecks);
export type EventInput = z.input<typeof eventInput>;

export const eventUpdate = z.object(eventFields).superRefine(eventChecks);
export type EventUpdate = z.input<typeof eventUpdate>;

export const rsvpInput = z.object({ answer: z.enum(['going', 'not_going'], { error: 'Answer going or not going' }) });
export const joinInput = z.object({ answer: optionalText('Your answer', 1000) }).nullish();
export const memberActionInput = z.object({ action: z.enum(MEMBER_ACTIONS, { error: 'Unknown action' }) });
export const deleteClubInput = z.object({ confirmName: str({ error: 'Type the club name to confirm' }).max(200) });

export const clubSearchQuery = z.object({
  q: str().trim().max(200).optional(),
  category: z.enum(CLUB_CATEGORY_IDS, { error: 'Unknown category' }).optional(),
  city: str().trim().max(120).optional(),
  online: z.enum(['true', 'false']).optional(),
  upcoming: z.enum(['true', 'false']).optional(),
  sort: z.enum(CLUB_SORTS).default('relevance'),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50, 'At most 50 a page').default(CLUB_PAGE_SIZE),
});
export type ClubSearchQuery = z.input<typeof clubSearchQuery>;

export const person = z.object({ id: z.string(), name: z.string(), image: z.string().nullable() });
export type Person = z.infer<typeof person>;

export const clubCard = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  category: z.string(),
  city: z.string().nullable(),
  online: z.boolean(),
  coverImage: z.string().nullable(),
  visibility: z.enum(CLUB_VISIBILITIES),
  memberCount: z.number(),
  /** Public clubs only (an approval club's events are for its members). */
  nextEventAt: z.string().nullable(),
});
export type ClubCard = z.infer<typeof clubCard>;

export const clubSearchResult = z.object({
  items: z.array(clubCard),
  total: z.number(),
  /**
   * exact: `total` clubs match; at-least: counting stopped at `total` (1,000: "1,000+ clubs");
   * about: a frequent word's total estimated from the database's statistics ("about 2,100 clubs").
   */
  totalIs: z.enum(['exact', 'at-least', 'about']),
  page: z.number(),
  pageSize: z.number(),
  /** The query with its misspelt words corrected, when the results are for it. */
  correctedQuery: z.string().nullable(),
});
export type ClubSearchResult = z.infer<typeof clubSearchResult>;

export const myRsvp = z.object({ status: z.enum(RSVP_STATUSES), waitlistPosition: z.number().nullable() });

export const eventCard = z.object({
  id: z.string(),
  clubId: z.string(),
  clubName: z.string(),
  /** The repeat this event is a date of (null: a one-off). */
  seriesId: z.string().nullable(),
  /** Explore lists one date per series: how many later dates of the series are still to come. */
  moreDates: z.number().optional(),
  title: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  online: z.boolean(),
  address: z.string().nullable(),
  status: z.enum(EVENT_STATUSES),
  goingCount: z.number(),
  capacity: z.number().nullable(),
  myRsvp: myRsvp.nullable(),
});
export type EventCard = z.infer<typeof eventCard>;

export const membershipView = z.object({ role: z.enum(CLUB_ROLES), state: z.enum(MEMBERSHIP_STATES) });

export const clubView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  city: z.string().nullable(),
  online: z.boolean(),
  coverImage: z.string().nullable(),
  visibility: z.enum(CLUB_VISIBILITIES),
  joinQuestion: z.string().nullable(),
  rules: z.string(),
  memberCount: z.number(),
  createdAt: z.string(),
  myMembership: membershipView.nullable(),
  /** Whether the viewer sees members and events (false: a non-member of an approval club). */
  membersVisible: z.boolean(),
  canManage: z.boolean(),
  isOwner: z.boolean(),
  organisers: z.array(person),
  memberPreview: z.array(person),
  upcomingEvents: z.array(eventCard),
  pastEvents: z.array(eventCard),
});
export type ClubView = z.infer<typeof clubView>;

export const memberRow = person.extend({ role: z.enum(CLUB_ROLES), joinedAt: z.string() });
export const requestRow = person.extend({ answer: z.string().nullable(), requestedAt: z.string() });
export const membersResult = z.object({ members: z.array(memberRow), requests: z.array(requestRow) });
export type MembersResult = z.infer<typeof membersResult>;

export const attendee = person.extend({ status: z.enum(RSVP_STATUSES) });

export const eventView = z.object({
  id: z.string(),
  clubId: z.string(),
  clubName: z.string(),
  seriesId: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  /** The link is for members; others see only that the event is online. */
  online: z.boolean(),
  onlineUrl: z.string().nullable(),
  address: z.string().nullable(),
  capacity: z.number().nullable(),
  rsvpDeadline: z.string().nullable(),
  status: z.enum(EVENT_STATUSES),
  goingCount: z.number(),
  waitlistCount: z.number(),
  myRsvp: myRsvp.nullable(),
  isMember: z.boolean(),
  canManage: z.boolean(),
  attendees: z.array(attendee),
  /** The same event as local wall-clock times in its zone, for the edit form. */
  local: z.object({ startsAt: z.string(), endsAt: z.string(), rsvpDeadline: z.string().nullable() }),
});
export type EventView = z.infer<typeof eventView>;

export const rsvpResult = z.object({ status: z.enum(RSVP_STATUSES), waitlistPosition: z.number().nullable(), message: z.string() });
export const createdEvents = z.object({ ids: z.array(z.string()) });

export const clubsHome = z.object({ clubs: z.array(clubCard.extend({ role: z.enum(CLUB_ROLES).nullable() })), events: z.array(eventCard) });
export type ClubsHome = z.infer<typeof clubsHome>;
