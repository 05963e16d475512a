import type { DropRefund, RosterPayment } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import { DomainEvents } from '../events/domain-events.js';

/**
 * What courses announce (docs/decisions/0007-domain-events.md). Other domains subscribe
 * at start-up (payments: refunds, the publish rule, the course's product); courses never
 * import them.
 */
export type CourseEventMap = {
  /** A paid or free course is about to be published (its owner checked): a listener may refuse (throw). */
  'course.publishing': { event: { courseId: string; educatorId: string; priceCents: number } };
  /** A course was published. */
  'course.published': { event: { courseId: string } };
  /** A learner left a course session. The reply: what the learner is told beyond the drop itself. */
  'enrolment.dropped': {
    event: {
      enrolmentId: string;
      courseId: string;
      courseSessionId: string;
      learner: { id: string; email: string; firstName: string };
      /** The account's learner profile whose seat it was (none: the account holder's own, ADR 0074). */
      learnerProfileId?: string | null;
      /** The enrolment held a seat (active, past due) before the drop: its calendar entries are cancelled. */
      seated?: boolean;
    };
    reply: { message: string; refund: DropRefund | null };
  };
  /** The educator cancelled a course session: every enrolment in it was dropped. */
  'course-session.cancelled': {
    event: {
      courseId: string;
      courseSessionId: string;
      droppedLearnerIds: string[];
      /** Of those, the learners who held a seat (active, past due): their calendar entries are cancelled. */
      seatedLearnerIds?: string[];
    };
  };
  /** A learner took a seat (or a waitlist place) in a free course session; paid seats are announced by payments. */
  'enrolment.created': {
    event: {
      enrolmentId: string;
      courseId: string;
      courseSessionId: string;
      /** The account holding the seat; `learnerProfileId` the learner in it (none: the holder, ADR 0074). */
      learnerId: string;
      learnerProfileId?: string | null;
      status: 'active' | 'waitlisted';
    };
  };
  /**
   * The class times of a course session changed (added or removed) while learners were in it:
   * the added ones' ids, or the removed one as it was (the row is gone; its calendar entry is
   * cancelled with a SEQUENCE above the last one sent, ADR 0068).
   */
  'course-session.changed': {
    event: {
      courseId: string;
      courseSessionId: string;
      change: 'class-times-added' | 'class-time-removed';
      addedIds?: string[];
      removed?: RemovedClassTime;
    };
  };
  /** A class time moved (new start, end, place or link); its SEQUENCE was raised (ADR 0068). */
  'class-time.moved': { event: { courseId: string; courseSessionId: string; classTimeId: string } };
  /** A class starts in 24 h or 1 h: remind these people (the session's seated learners and the educator, not yet reminded). */
  'class.reminder-due': {
    event: { courseId: string; courseSessionId: string; classTimeId: string; before: '24h' | '1h'; educatorId: string; userIds: string[] };
  };
  /** A learner published a review of a course (`created`: a first review, not an edit). */
  'review.posted': { event: { reviewId: string; courseId: string; learnerId: string; rating: number; created: boolean } };
  /**
   * The educator's roster is being read: a listener answers how each enrolment was paid
   * (payments), keyed by enrolment id; one with no answer is free.
   */
  'roster.reading': { event: { courseId: string; enrolmentIds: string[] }; reply: Record<string, RosterPayment> };
  /** A seat offered from a paid session's waitlist was not paid for in time: it went to the next in line (ADR 0067). */
  'waitlist.offer-lapsed': {
    /** learnerProfileId: the account's learner the seat was held for (null: the account holder). */
    event: { courseId: string; courseSessionId: string; learnerId: string; learnerProfileId: string | null };
  };
  /**
   * An offered seat stopped being the learner's without being claimed (lapsed or declined):
   * payments expires the checkout the learner may still have open for it, so it cannot be paid.
   */
  'waitlist.offer-ended': { event: { courseId: string; courseSessionId: string; learnerId: string; why: 'lapsed' | 'declined' } };
  /** Learners on the waitlist got a seat or, in a paid session, the offer of one (capacity raised, a seat freed). */
  'waitlist.promoted': { event: { courseId: string; courseSessionId: string; enrolmentIds: string[] } };
};

/** A class time as it was when it was removed (its calendar entry's cancellation). */
export interface RemovedClassTime {
  id: string;
  startsAt: string;
  endsAt: string;
  location: string | null;
  meetingUrl: string | null;
  /** Already raised above the last one sent. */
  sequence: number;
}

export type CourseEvents = DomainEvents<CourseEventMap>;

export function createCourseEvents(log: { error(obj: object, msg: string): void }): CourseEvents {
  return new DomainEvents<CourseEventMap>(log);
}

/**
 * Announces learners moved up from a session's waitlist when their seat was freed outside
 * courses' own use cases (payments releasing the seat of installments that could not be
 * collected). Courses owns the event: another domain asks for it here, never on courses' bus.
 */
export async function announceWaitlistPromoted(
  app: Pick<AppServices, 'database' | 'courseEvents'>,
  event: CourseEventMap['waitlist.promoted']['event'],
): Promise<void> {
  await app.courseEvents.announceCommitted(app.database.db, 'waitlist.promoted', event);
}
