import type { NotificationType } from '../../shared/notifications-schemas.js';
import type { EmailMessage } from '../email/mailer.js';
import { formatClassTime, formatInstant } from '../../shared/time.js';
import { CANCELLED_SESSION_REFUND, REFUND_ARRIVAL } from '../../shared/refund-terms.js';
import { classroomPath } from '../../shared/routes.js';
import {
  delayedRefundEmail,
  dropRefundEmail,
  enrolledReceiptEmail,
  installmentFailedEmail,
  installmentReceiptEmail,
  noticeEmail,
  planActiveEmail,
  seatGoneRefundEmail,
  seatReleasedEmail,
  sessionCancelledEmail,
  waitlistPromotionEmail,
} from '../email/templates.js';

/**
 * How each type of notification reads: in the app (title, body, the link to what it is
 * about) and by email. `data` is what notify stored: ids and the few words needed here.
 * The emails of moments that had one before (receipts, refunds, a cancelled session)
 * keep their content (email/templates.ts).
 */
export type NotificationData = Record<string, unknown>;

export interface Rendered {
  title: string;
  body: string;
  /** A path in the web app. */
  link: string;
}

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const coursePath = (d: NotificationData) => (d.courseId ? `/course/${str(d.courseId)}` : '/explore');
/** Settings' payments section (its own address, issue 23 item 3). */
const PAYMENTS = '/user/settings#payments';
const clubPath = (d: NotificationData) => (d.clubId ? `/club/${str(d.clubId)}` : '/club/search');
const clubEventPath = (d: NotificationData) => (d.clubId && d.eventId ? `/club/${str(d.clubId)}/event/${str(d.eventId)}` : clubPath(d));

/**
 * When a club event takes place, in the reader's zone (issue 23): from the instants the
 * notification keeps, in `readerZone` (the user's own zone), else in the event's zone; a
 * notification stored before the instants were kept has only its words (`when`).
 */
export function whenOf(d: NotificationData, readerZone?: string | null): string {
  const startsAt = str(d.startsAt);
  const endsAt = str(d.endsAt);
  const zone = readerZone || str(d.timeZone);
  if (!startsAt || !endsAt || !zone) return str(d.when);
  try {
    return formatClassTime(startsAt, endsAt, zone);
  } catch {
    return str(d.when);
  }
}

/**
 * When a class takes place (ADR 0068): in the reader's own zone, with the session's zone
 * beside it when it differs ("Tue 3 Mar, 19:00 – 21:00 (Europe/Paris); 18:00 – 20:00 in
 * Europe/London, where the class is held").
 */
export function classWhenOf(d: NotificationData, readerZone?: string | null): string {
  const startsAt = str(d.startsAt);
  const endsAt = str(d.endsAt);
  const zone = str(d.timeZone, 'UTC');
  if (!startsAt || !endsAt) return '';
  try {
    const there = formatClassTime(startsAt, endsAt, zone);
    if (!readerZone || readerZone === zone) return there;
    const here = formatClassTime(startsAt, endsAt, readerZone);
    const thereTimes = there.replace(/ \([^)]*\)$/, '');
    return `${here}; ${thereTimes} in ${zone}, where the class is held`;
  } catch {
    return '';
  }
}

export function render(type: NotificationType, input: NotificationData, readerZone?: string | null): Rendered {
  const d = 'startsAt' in input ? { ...input, when: whenOf(input, readerZone) } : input;
  const title = str(d.title, str(d.courseTitle, 'your course'));
  switch (type) {
    case 'new_message': {
      const n = num(d.count) ?? 1;
      const who = str(d.senderName, 'Someone');
      return {
        title: n > 1 ? `${n} new messages from ${who}` : `New message from ${who}`,
        body: str(d.preview, 'Open the conversation to read it.'),
        link: `/mailbox/${str(d.senderId)}`,
      };
    }
    case 'enrolled':
      return d.status === 'waitlisted'
        ? {
            title: `You're on the waitlist for ${title}`,
            body: `The session is full: you are on its waitlist${num(d.position) ? ` (position ${num(d.position)})` : ''}. You will hear from us as soon as a seat opens.`,
            link: coursePath(d),
          }
        : {
            title: `You're enrolled in ${title}`,
            body: `Your seat in "${title}" is confirmed. It is free: nothing to pay.`,
            link: coursePath(d),
          };
    case 'learner_enrolled':
      return {
        title: `${str(d.learnerName, 'A learner')} enrolled in ${title}`,
        body: d.status === 'waitlisted' ? 'They joined the waitlist of a full session.' : 'They took a seat in one of your sessions.',
        link: coursePath(d),
      };
    case 'waitlist_promoted': {
      // forLearner: the first name of the account's learner the seat is for (a family account).
      const who = str(d.forLearner);
      return {
        title: `A seat opened up: ${who ? `${who} is` : 'you are'} enrolled in ${title}`,
        body: `${who ? `${who} has` : 'You have'} moved from the waitlist to enrolled in "${title}".`,
        link: coursePath(d),
      };
    }
    case 'waitlist_offer': {
      const forWhom = str(d.forLearner) || 'you';
      if (d.lapsed)
        return {
          title: `The seat held for ${forWhom} in ${title} has gone to the next learner`,
          body: `The seat in "${title}" was not paid for in time, so it went to the next learner on the waitlist. You can join the waitlist again from the course page.`,
          link: coursePath(d),
        };
      const until = str(d.expiresAt) ? formatInstant(str(d.expiresAt), readerZone || 'UTC') : 'the time shown on the checkout';
      return {
        title: `A seat in ${title} is held for ${forWhom}`,
        body: `A seat opened up in "${title}" and it is held for ${forWhom} until ${until}. Pay for it by then to take it; after that it goes to the next learner on the waitlist.`,
        link: d.courseId && d.sessionId ? `/course/checkout?course=${str(d.courseId)}&session=${str(d.sessionId)}` : coursePath(d),
      };
    }
    case 'session_changed':
      return d.change === 'cancelled'
        ? {
            title: `A session of ${title} was cancelled`,
            body: `The educator cancelled the session you were in. ${CANCELLED_SESSION_REFUND}`,
            link: coursePath(d),
          }
        : d.change === 'class-time-moved'
          ? {
              title: `A class of ${title} moved`,
              body: `The educator moved a class of your session: it is now ${classWhenOf(d, readerZone)}. Your calendar invitation was updated.`,
              link: coursePath(d),
            }
          : {
              title: `The schedule of ${title} changed`,
              body:
                d.change === 'class-time-removed'
                  ? 'The educator removed a class time from your session. Check the new schedule.'
                  : 'The educator added class times to your session. Check the new schedule.',
              link: coursePath(d),
            };
    case 'payment_receipt':
      if (d.kind === 'plan')
        return { title: `Welcome to ${title}`, body: `${title} is active; we received ${str(d.amount)}.`, link: '/educator/dashboard' };
      if (d.kind === 'installment') {
        const which = num(d.installments) ? `installment ${num(d.sequence)} of ${num(d.installments)}` : `payment ${num(d.sequence)}`;
        return { title: `Receipt: ${title}, ${which}`, body: `We received ${str(d.amount)} for "${title}" (${which}).`, link: PAYMENTS };
      }
      return {
        title: `You're enrolled in ${title}`,
        body: `We received your payment of ${str(d.amount)}${d.detail ? ` (${str(d.detail)})` : ''}.`,
        link: coursePath(d),
      };
    case 'installment_failed':
      return d.released
        ? {
            title: `Your seat in ${title} was released`,
            body: 'We could not collect the installments, so the seat was released.',
            link: coursePath(d),
          }
        : {
            title: `Your installment for ${title} failed`,
            body: `We could not collect ${str(d.amount)}. Your seat is kept for now; we will try your card again.`,
            link: PAYMENTS,
          };
    case 'refund_issued':
      return {
        title: d.reason === 'delayed' ? `Your refund for ${title} has gone through` : `Refund for ${title}`,
        body:
          d.reason === 'seat_gone'
            ? `We could not give you a seat (${str(d.detail, 'the session was full').toLowerCase()}); ${str(d.amount)} was refunded in full.`
            : `${str(d.amount)} was refunded to your card. ${REFUND_ARRIVAL}`,
        link: coursePath(d),
      };
    case 'new_review':
      return {
        title: `New ${num(d.rating) ?? ''}-star review of ${title}`.replace('New -star', 'New'),
        body: `${str(d.learnerName, 'A learner')} reviewed your course${d.text ? `: "${truncate(str(d.text), 140)}"` : '.'}`,
        link: coursePath(d),
      };
    case 'club_join_request':
      return {
        title: `${str(d.requesterName, 'Someone')} asked to join ${clubName(d)}`,
        body: 'Approve or decline the request from the members of your club.',
        link: clubPath(d),
      };
    case 'club_ownership':
      return {
        title: `You now own ${clubName(d)}`,
        body:
          d.reason === 'account-closed'
            ? `Its owner closed their account, and ${clubName(d)} passed to you as its longest-standing organiser: its settings, members and events are yours to run.`
            : `${str(d.fromName, 'Its owner')} handed ${clubName(d)} over to you: its settings, members and events are yours to run.`,
        link: clubPath(d),
      };
    case 'club_request_approved':
      return {
        title: `Welcome to ${clubName(d)}`,
        body: `Your request to join ${clubName(d)} was approved: you can see its events and answer them now.`,
        link: clubPath(d),
      };
    case 'club_new_event': {
      const n = num(d.occurrences) ?? 1;
      return {
        title: `New event in ${clubName(d)}: ${eventTitle(d)}`,
        body: n > 1 ? `${n} dates, the first ${str(d.when)}.` : `${str(d.when)}.`,
        link: clubEventPath(d),
      };
    }
    case 'club_event_changed':
      if (d.change === 'club-deleted')
        return {
          title: `${eventTitle(d)} is cancelled: ${clubName(d)} was deleted`,
          body: `The club was deleted, so its event of ${str(d.when)} will not take place.`,
          link: '/club/search',
        };
      return d.change === 'cancelled'
        ? {
            title: `${eventTitle(d)} was cancelled`,
            body: `The organisers of ${clubName(d)} cancelled the event of ${str(d.when)}.`,
            link: clubEventPath(d),
          }
        : {
            title: `${eventTitle(d)} changed`,
            body: `The organisers of ${clubName(d)} changed the event: it is now ${str(d.when)}.`,
            link: clubEventPath(d),
          };
    case 'club_waitlist_promoted':
      return {
        title: `A place opened up: you are going to ${eventTitle(d)}`,
        body: `You moved from the waitlist to going: ${str(d.when)}.`,
        link: clubEventPath(d),
      };
    case 'class_reminder': {
      const where = str(d.meetingUrl)
        ? `Join online: ${str(d.meetingUrl)}`
        : str(d.venue)
          ? `At ${str(d.venue)} (map: ${str(d.mapUrl)})`
          : 'The place and link are in your classroom.';
      return {
        title: `${d.before === '1h' ? 'In an hour' : 'Tomorrow'}: ${title}${d.role === 'educator' ? ', which you teach' : str(d.learners) ? `, for ${str(d.learners)}` : ''}`,
        body: `${classWhenOf(d, readerZone)}. ${where}`,
        link: d.courseId && d.sessionId ? classroomPath(str(d.courseId), str(d.sessionId)) : coursePath(d),
      };
    }
    case 'classroom_post':
      return {
        title: `New ${d.kind === 'reply' ? 'reply' : 'post'} in ${str(d.courseTitle, 'your course')}`,
        body: `${str(d.authorName, 'Someone')}: ${str(d.preview)}`,
        link: d.courseId && d.sessionId ? classroomPath(str(d.courseId), str(d.sessionId)) : coursePath(d),
      };
    case 'club_event_reminder':
      return {
        title: `${d.before === '1h' ? 'In an hour' : 'Tomorrow'}: ${eventTitle(d)}`,
        body: `${clubName(d)}, ${str(d.when)}. If you can no longer come, answer "not going" so someone else gets your place.`,
        link: clubEventPath(d),
      };
  }
}

const clubName = (d: NotificationData) => str(d.clubName, 'your club');
const eventTitle = (d: NotificationData) => str(d.title, 'A club event');

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The email of one notification (before its unsubscribe link is added). */
export function renderEmail(
  type: NotificationType,
  d: NotificationData,
  to: { email: string; firstName: string; timeZone?: string | null },
  base: string,
): EmailMessage {
  const r = render(type, d, to.timeZone);
  const url = `${base}${r.link}`;
  const courseUrl = `${base}${coursePath(d)}`;
  const courseTitle = str(d.title, str(d.courseTitle, 'your course'));
  const { email, firstName } = to;
  switch (type) {
    case 'waitlist_promoted':
      return waitlistPromotionEmail(email, firstName, courseTitle, courseUrl, str(d.forLearner) || null);
    case 'session_changed':
      if (d.change === 'cancelled') return sessionCancelledEmail(email, firstName, courseTitle, courseUrl);
      break;
    case 'payment_receipt':
      if (d.kind === 'plan')
        return planActiveEmail(email, firstName, {
          planName: courseTitle,
          feePercent: num(d.feePercent) ?? 0,
          url: `${base}/educator/dashboard`,
        });
      if (d.kind === 'installment')
        return installmentReceiptEmail(email, firstName, {
          title: courseTitle,
          amount: str(d.amount),
          sequence: num(d.sequence) ?? 1,
          installments: num(d.installments),
          receiptUrl: typeof d.receiptUrl === 'string' ? d.receiptUrl : null,
          url: `${base}${PAYMENTS}`,
        });
      return enrolledReceiptEmail(email, firstName, {
        courseTitle,
        amount: str(d.amount),
        detail: str(d.detail),
        receiptUrl: typeof d.receiptUrl === 'string' ? d.receiptUrl : null,
        courseUrl,
        refundPolicy: typeof d.refundPolicy === 'string' ? d.refundPolicy : null,
      });
    case 'installment_failed':
      return d.released
        ? seatReleasedEmail(email, firstName, { courseTitle, courseUrl })
        : installmentFailedEmail(email, firstName, { courseTitle, amount: str(d.amount), url: `${base}${PAYMENTS}` });
    case 'refund_issued':
      if (d.reason === 'seat_gone')
        return seatGoneRefundEmail(email, firstName, {
          courseTitle,
          amount: str(d.amount),
          reason: str(d.detail, 'This session is full'),
          courseUrl,
        });
      if (d.reason === 'delayed') return delayedRefundEmail(email, firstName, { courseTitle, amount: str(d.amount), courseUrl });
      return dropRefundEmail(email, firstName, {
        courseTitle,
        amount: str(d.amount),
        courseUrl,
        installmentsStopped: d.installmentsStopped === true,
      });
    default:
      break;
  }
  const action: Record<NotificationType, string> = {
    new_message: 'Reply',
    enrolled: 'See the course',
    learner_enrolled: 'See the course',
    waitlist_promoted: 'See the course',
    waitlist_offer: 'Claim your seat',
    session_changed: 'See the schedule',
    payment_receipt: 'See your payments',
    installment_failed: 'Check your payments',
    refund_issued: 'See the course',
    new_review: 'See the review',
    club_join_request: 'See the request',
    club_request_approved: 'See the club',
    club_ownership: 'See the club',
    club_new_event: 'See the event',
    club_event_changed: 'See the event',
    club_waitlist_promoted: 'See the event',
    club_event_reminder: 'See the event',
    class_reminder: 'Open your classroom',
    classroom_post: 'Open the classroom',
  };
  return noticeEmail(email, firstName, {
    subject: r.title,
    body: r.body,
    action: type === 'waitlist_offer' && d.lapsed ? 'See the course' : action[type],
    url,
    footer:
      type === 'waitlist_offer' && !d.lapsed
        ? 'If you no longer want the seat, decline it from the course page so the next learner gets it sooner.'
        : type === 'enrolled'
          ? 'If you can no longer come, drop the session from the course page so someone else gets the seat.'
          : type === 'club_waitlist_promoted'
            ? 'If you can no longer come, answer "not going" on the event page so someone else gets the place.'
            : 'You get this email because of your notification settings.',
  });
}
