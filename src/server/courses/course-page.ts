import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import { agesFit, learnerAgeNow, liveLearnerProfiles } from '../accounts/learner-profiles.js';
import { educatorProfiles, people } from '../accounts/people.js';
import type { AppServices } from '../app-services.js';
import type { Db } from '../db/client.js';
import { AppError } from '../http/errors.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type ViewerRow } from '../accounts/viewer.js';

/**
 * The course page (GET /api/courses/:courseId, courseViewJson): docs/decisions/0031-course-page-cache.md
 * and 0043-course-page-one-statement.md.
 */

/** A timestamp in the form the API answers (Date#toISOString: UTC, milliseconds, "Z"). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The course page, built by PostgreSQL as JSON, in two parts (docs/decisions/0031-course-page-cache.md):
 *   - the shared part, what every viewer sees: the course (the columns the page shows,
 *     never the search vectors), its educator and their rating, each session with its
 *     status, seats, waitlist and class times (no meeting link), the latest 50 reviews.
 *     Each server keeps it (parsed, and as the whole answer of a viewer with no part of
 *     their own) under the educator's page version (course_page_version, moved by triggers
 *     at the commit of any change the page shows, drizzle/0029) and the UTC day (a session's
 *     status depends on it); built again when either moved;
 *   - the viewer's part, read on every visit with the viewer themself: whether they own the
 *     course, their enrolment per session and waitlist place, the meeting links they may
 *     see, their review, whether they may review and from when. Null for a viewer with none
 *     of these (no enrolment, no review, not the owner): most visits.
 * The rules it applies: a session's status is cancelled, completed once it ended (or was
 * completed), running once it started, full when every seat is taken, else scheduled;
 * meeting links go to the enrolled and the owner only; names and the default avatar are
 * those of the course view schema.
 */
function sharedPartSql() {
  const avatar = sql`${sql.placeholder('defaultAvatar')}::text`;
  const today = sql.raw(`(now() at time zone 'UTC')::date`);
  const shared = sql<string>`json_build_object(
    'id', c.id, 'title', c.title, 'summary', c.summary, 'description', c.description, 'category', c.category, 'level', c.level,
    'language', c.language, 'audience', c.audience, 'format', c.format, 'city', c.city, 'address', c.address, 'coverImage', c.cover_image,
    'priceCents', c.price_cents, 'currency', c.currency, 'installments', c.installments, 'refundPolicy', c.refund_policy, 'waitlistHoldMinutes', c.waitlist_hold_minutes,
    'minAge', c.min_age, 'maxAge', c.max_age, 'status', c.status,
    'ratingAvg', c.rating_avg, 'ratingCount', c.rating_count, 'publishedAt', ${sql.raw(iso('c.published_at'))},
    'educator', (
      select json_build_object(
        'userId', c.educator_id, 'name', trim(u.first_name || ' ' || u.last_name), 'headline', e.headline, 'bio', e.bio,
        'profileImage', coalesce(nullif(e.profile_image, ''), nullif(u.profile_image, ''), ${avatar}),
        'ratingAvg', er.avg, 'ratingCount', er.n)
      from ${people} u join ${educatorProfiles} e on e.user_id = u.id
      cross join lateral (
        select coalesce(sum(c2.rating_avg * c2.rating_count) / nullif(sum(c2.rating_count), 0), 0)::real as avg, coalesce(sum(c2.rating_count), 0)::int as n
        from course c2 where c2.educator_id = c.educator_id and c2.status = 'published') er
      where u.id = c.educator_id),
    'sessions', coalesce((
      select json_agg(json_build_object(
        'id', s.id, 'startsOn', s.starts_on, 'endsOn', s.ends_on, 'capacity', s.capacity, 'minToRun', s.min_to_run, 'timeZone', s.time_zone,
        'status', case when s.status = 'cancelled' then 'cancelled' when s.status = 'completed' or s.ends_on < ${today} then 'completed'
                       when s.starts_on <= ${today} then 'running' when s.seats_taken >= s.capacity then 'full' else 'scheduled' end,
        'seatsTaken', s.seats_taken, 'seatsLeft', greatest(0, s.capacity - s.seats_taken),
        'waitlisted', (select count(*)::int from enrolment w where w.session_id = s.id and w.status = 'waitlisted'),
        'classTimes', coalesce((
          select json_agg(json_build_object('id', t.id, 'startsAt', ${sql.raw(iso('t.starts_at'))}, 'endsAt', ${sql.raw(iso('t.ends_at'))}, 'location', t.location)
            order by t.starts_at)
          from class_time t where t.session_id = s.id), '[]'::json)
      ) order by s.starts_on)
      from course_session s where s.course_id = c.id), '[]'::json),
    'reviews', coalesce((
      select json_agg(json_build_object('id', r.id, 'rating', r.rating, 'text', r.text,
        'authorName', trim(r.first_name || ' ' || left(r.last_name, 1) || '.'), 'authorImage', coalesce(nullif(r.image, ''), ${avatar}),
        'createdAt', ${sql.raw(iso('r.created_at'))}, 'updatedAt', ${sql.raw(iso('r.updated_at'))}) order by r.updated_at desc)
      from (select r.*, ru.first_name, ru.last_name, ru.profile_image as image from review r join ${people} ru on ru.id = r.learner_id
            where r.course_id = c.id order by r.updated_at desc limit 50) r), '[]'::json)
  )::text`;
  return shared;
}

/**
 * The viewer's part (ViewerPart), for the viewer id `viewer` (an SQL expression): null unless the
 * viewer owns the course, is enrolled (not dropped) or reviewed it. The part itself is
 * course_page_viewer_part (drizzle/0048, the rules of the page's viewer part there): a function,
 * so its dozen subqueries are planned and started only for a viewer who has a part; written
 * inline they were started on every visit, most of which have none (ADR 0071).
 */
function viewerPartSql(viewer: SQL) {
  return sql<ViewerPart | null>`case when c.educator_id = ${viewer}
      or exists (select 1 from enrolment m where m.course_id = c.id and m.learner_id = ${viewer} and m.status <> 'dropped')
      or exists (select 1 from review r where r.course_id = c.id and r.learner_id = ${viewer})
    then course_page_viewer_part(c.id, c.educator_id, ${viewer}) end`;
}

const pageVersion = sql.raw(`coalesce((select pv.version from course_page_version pv where pv.educator_id = c.educator_id), 0)::text`);
const utcDay = sql.raw(`(now() at time zone 'UTC')::date::text`);

/** The shared part, prepared once per database. */
function sharedPartStatement(db: Db) {
  return db
    .select({ version: sql<string>`${pageVersion}`, day: sql<string>`${utcDay}`, shared: sharedPartSql() })
    .from(sql`course c`)
    .where(sql`c.id = ${sql.placeholder('courseId')}::uuid`)
    .limit(1)
    .prepare('course_view_shared');
}

/**
 * The viewer (viewerBySessionToken) and their part of the course page, with the course's
 * status, owner, page version and the UTC day, in one statement: the only one of a visit
 * whose shared part this server holds. No row: no viewer; null course columns: no course.
 */
const viewerPartQuery = sql`with v as (${viewerBySessionToken(sql.placeholder('token'))})
    select v.*, c.status as "courseStatus", c.educator_id as "courseEducatorId", ${pageVersion} as "pageVersion", ${utcDay} as "pageDay",
      ${viewerPartSql(sql.raw('v.id'))} as "pageMine", ${viewerLearnersSql(sql.raw('v.id'))} as "pageLearners"
    from v left join course c on c.id = ${sql.placeholder('courseId')}::uuid`;
type ViewerPartRow = ViewerRow & {
  courseStatus: string | null;
  courseEducatorId: string | null;
  pageVersion: string | null;
  pageDay: string | null;
  pageMine: ViewerPart | null;
  pageLearners: ViewerLearner[] | null;
};

/**
 * The viewer's learner profiles (family accounts, ADR 0074), oldest first, null for none: the
 * page says, per session, which of them are enrolled and offers to enrol the others. One index
 * probe (learner_profile_account_idx), read through accounts' relation.
 */
function viewerLearnersSql(viewer: SQL) {
  return sql`(select json_agg(json_build_object('id', lp.id, 'firstName', lp.first_name, 'ageMin', lp.age_min, 'ageMax', lp.age_max,
      'agesAsOf', lp.ages_as_of) order by lp.created_at, lp.id) from ${liveLearnerProfiles} lp where lp.account_id = ${viewer})`;
}
interface ViewerLearner {
  id: string;
  firstName: string;
  ageMin: number;
  ageMax: number;
  agesAsOf: string;
}
type LearnerSeat = { learnerProfileId: string; id: string; status: string; waitlistPosition: number | null; offerExpiresAt: string | null };

/** The viewer's part of the page (null: no enrolment, no review, not the owner). */
interface ViewerPart {
  /** Session id -> the viewer's enrolment in it. */
  enrolments: Record<string, { id: string; status: string; waitlistPosition: number | null; offerExpiresAt: string | null }> | null;
  /** Session id -> the seats of the viewer's learner profiles in it (ADR 0074). */
  learnerEnrolments: Record<string, LearnerSeat[]> | null;
  /** Class time id -> its meeting link, for the sessions the viewer may join (all, for the owner). */
  links: Record<string, string> | null;
  reviewId: string | null;
  canReview: boolean;
  reviewOpensAt: string | null;
}

interface SharedSession {
  id: string;
  classTimes: { id: string }[];
  [key: string]: unknown;
}
interface Shared {
  sessions: SharedSession[];
  reviews: { id: string }[];
  [key: string]: unknown;
}
interface CachedPage {
  version: string;
  day: string;
  shared: Shared;
  /** The whole answer for a viewer with no part of their own (most visits). */
  plain: string;
}

/** Courses whose shared part a server keeps (oldest dropped first); ~10 kB each. */
const CACHED_PAGES = 1000;

/**
 * An offered seat whose hold is over says so (offerEnded) from that moment: its expiry job
 * (ADR 0067) ends it when the job poller next runs, and until then the checkout refuses it.
 */
function withOfferState<E extends { status: string; offerExpiresAt: string | null }>(e: E, now: number): E & { offerEnded?: boolean } {
  return e.status === 'offered' ? { ...e, offerEnded: !!e.offerExpiresAt && Date.parse(e.offerExpiresAt) <= now } : e;
}

/** The answer: the shared part with the viewer's, keys in the courseView schema's order. */

function render(shared: Shared, isOwner: boolean, mine: ViewerPart | null, learners: ViewerLearner[] | null = null): string {
  const { sessions, reviews, ...head } = shared;
  const now = Date.now();
  const myEnrolment = (id: string) => {
    const e = mine?.enrolments?.[id];
    return e ? withOfferState(e, now) : null;
  };
  const names = new Map((learners ?? []).map((l) => [l.id, l.firstName]));
  const ages = { minAge: (shared.minAge as number | null) ?? null, maxAge: (shared.maxAge as number | null) ?? null };
  return JSON.stringify({
    ...head,
    isOwner,
    sessions: sessions.map((s) => ({
      ...s,
      classTimes: s.classTimes.map((t) => ({ ...t, meetingUrl: mine?.links?.[t.id] ?? null })),
      myEnrolment: myEnrolment(s.id),
      learnerEnrolments: (mine?.learnerEnrolments?.[s.id] ?? []).map((e) => ({
        ...withOfferState(e, now),
        firstName: names.get(e.learnerProfileId) ?? '',
      })),
    })),
    reviews: reviews.map((r) => ({ ...r, mine: !!mine?.reviewId && r.id === mine.reviewId })),
    canReview: mine?.canReview ?? false,
    reviewOpensAt: mine?.reviewOpensAt ?? null,
    myLearners: (learners ?? []).map((l) => {
      const now = learnerAgeNow(l);
      return { id: l.id, firstName: l.firstName, ageMin: now.min, ageMax: now.max, fitsAges: agesFit(now, ages) };
    }),
  });
}

interface PageState {
  sharedPart: ReturnType<typeof sharedPartStatement>;
  pages: Map<string, CachedPage>;
}
const stateByDb = new WeakMap<Db, PageState>();

/**
 * Everything a learner needs to decide (courseView), as the JSON text the API answers:
 * course + educator, sessions, class times, waitlist counts, the viewer's enrolments,
 * reviews, the educator's rating. One statement per visit (the viewer, their part and the
 * version) while this server's copy of the shared part is current, a second one to build
 * it otherwise; the same whatever the number of sessions. A draft or archived course exists
 * for its educator only. The viewer comes from the session token (app.requireViewerWith):
 * `adopt` makes them the request's viewer, or answers 401.
 */
export async function courseViewJson(app: AppServices, requireViewerWith: RequireViewerWith, courseId: string): Promise<string> {
  const database = app.database;
  const { viewer, data: row } = await requireViewerWith(async (token) => {
    const [r] = await database.prepared<ViewerPartRow>('course_view_viewer', viewerPartQuery, { token, courseId });
    return { viewer: r ? toViewer(r) : null, data: r };
  });
  const isOwner = row.courseEducatorId === viewer.user.id;
  if (!row.courseStatus || (row.courseStatus !== 'published' && !isOwner)) throw AppError.notFound('This course does not exist');
  let state = stateByDb.get(database.db);
  if (!state) stateByDb.set(database.db, (state = { sharedPart: sharedPartStatement(database.db), pages: new Map() }));
  let page = state.pages.get(courseId);
  if (!page || page.version !== row.pageVersion || page.day !== row.pageDay) {
    // Built in its own snapshot and kept under the version read in it.
    const [built] = await state.sharedPart.execute({ courseId, defaultAvatar: DEFAULT_AVATAR });
    if (!built) throw AppError.notFound('This course does not exist');
    const shared = JSON.parse(built.shared) as Shared;
    page = { version: built.version, day: built.day, shared, plain: render(shared, false, null) };
    state.pages.delete(courseId);
    if (state.pages.size >= CACHED_PAGES) state.pages.delete(state.pages.keys().next().value!);
    state.pages.set(courseId, page);
  }
  return row.pageMine || row.pageLearners ? render(page.shared, isOwner, row.pageMine, row.pageLearners) : page.plain;
}
