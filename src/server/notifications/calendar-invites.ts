import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { classroomPath } from '../../shared/routes.js';
import type { AppServices } from '../app-services.js';
import { fullNameOf, mailContactOf } from '../accounts/people.js';
import { isSeated, learnerStatusIn, seatLearnersIn, sessionCalendarOf, type SessionCalendar } from '../courses/class-reminders.js';
import type { RemovedClassTime } from '../courses/events.js';
import type { Tx } from '../db/transaction.js';
import { noticeEmail, withUnsubscribe } from '../email/templates.js';
import { preferenceOf } from './preferences.js';
import { scopeLabel, unsubscribeUrl } from './unsubscribe.js';

/**
 * Calendar invitations (ADR 0068): an email with an iCalendar (RFC 5545/5546 iTIP) document,
 * METHOD:REQUEST when a learner takes a seat or a class time is added or moved, METHOD:CANCEL
 * when they drop, a class time is removed or the session is cancelled. One VEVENT per class
 * time, its UID `class-<class time id>@<host>` the same in every document, its SEQUENCE the
 * class time's (raised on each move), so a calendar updates or removes the entry it has.
 *
 * A job per invitation, stored in the causing transaction (it exists exactly when the change
 * committed) and started after the commit; it reads the session when it runs, so a document
 * sent late says what is true then (a learner who dropped meanwhile gets no REQUEST). It
 * goes with the `class_reminder` type's email setting: off stops invitations too.
 *
 * Family accounts (ADR 0074): one document per account and session, however many of its
 * learners hold seats in it; its summary and description name them (read when the job runs).
 * A drop that leaves the account other seats is no cancellation: it sends an update of the
 * classes to come naming who still attends; only the drop of its last seat sends CANCEL.
 */
export const INVITE_JOB = 'notification.calendar-invite';

export type InviteReason = 'enrolled' | 'added' | 'moved' | 'removed' | 'dropped' | 'session-cancelled';

export interface InviteJob {
  userId: string;
  sessionId: string;
  method: 'REQUEST' | 'CANCEL';
  reason: InviteReason;
  /** The class times concerned (null: every one still to come). */
  classTimeIds: string[] | null;
  /** A class time removed (the row is gone): its cancellation. */
  removed?: RemovedClassTime;
}

/** Stores invitation jobs in the announcing transaction; answers the follow-up that starts them once committed. */
export async function scheduleInvites(app: AppServices, tx: Tx, jobs: InviteJob[]) {
  const keys: string[] = [];
  for (const job of jobs) {
    // A whole-session invitation or drop of an account is one job while it waits: the job reads
    // the seats when it runs, so two seats taken (or dropped) in one checkout send one document.
    const whole = job.classTimeIds === null && !job.removed && (job.reason === 'enrolled' || job.reason === 'dropped');
    const key = whole ? `calendar-invite:${job.userId}:${job.sessionId}:${job.reason}` : `calendar-invite:${job.userId}:${randomUUID()}`;
    await app.jobs.schedule(INVITE_JOB, job, { key, conn: tx });
    keys.push(key);
  }
  return async () => {
    if (!keys.length) return;
    const sending = app.jobs.runNow(keys);
    if (app.mailer.transport === 'outbox') await sending;
  };
}

export function registerInviteJobs(app: AppServices) {
  app.jobs.register(INVITE_JOB, (payload) => sendInvite(app, payload as InviteJob));
}

type Entry = { id: string; startsAt: Date; endsAt: Date; location: string | null; meetingUrl: string | null; sequence: number };

/** The job: re-reads the session and the learner's seat, then emails the document (or nothing when it no longer holds). */
export async function sendInvite(app: AppServices, job: InviteJob) {
  const db = app.database.db;
  if ((await preferenceOf(db, job.userId, 'class_reminder')).email === 'off') return;
  const u = await mailContactOf(db, job.userId);
  if (!u || u.banned) return;
  const cal = await sessionCalendarOf(db, job.sessionId);
  if (!cal) return;
  const status = await learnerStatusIn(db, job.sessionId, job.userId);
  const now = Date.now();
  let method = job.method;
  let reason: InviteReason | 'learner-dropped' = job.reason;
  let entries: Entry[];
  if (job.method === 'REQUEST') {
    if (!isSeated(status) || cal.status !== 'scheduled') return;
    entries = cal.classTimes.filter((t) => (job.classTimeIds === null || job.classTimeIds.includes(t.id)) && t.endsAt.getTime() > now);
  } else if (job.removed) {
    const r = job.removed;
    entries = [{ ...r, startsAt: new Date(r.startsAt), endsAt: new Date(r.endsAt) }];
  } else if (job.reason === 'dropped' && isSeated(status)) {
    // The account still holds a seat (another of its learners, or a seat taken again since the
    // drop): it keeps the classes; an update says who still attends.
    if (cal.status !== 'scheduled') return;
    method = 'REQUEST';
    reason = 'learner-dropped';
    entries = cal.classTimes.filter((t) => t.endsAt.getTime() > now);
  } else {
    entries = cal.classTimes.filter((t) => t.endsAt.getTime() > now);
  }
  if (!entries.length) return;
  // Whom the account's seats are for (none left on a cancellation: the names the document had are not needed).
  const seat = method === 'REQUEST' ? (await seatLearnersIn(db, job.sessionId, { accountIds: [job.userId] })).get(job.userId) : undefined;
  const learners = seat && seat.names.length ? learnersPhrase([...(seat.self ? [u.firstName] : []), ...seat.names]) : null;

  const base = app.config.publicUrl;
  const classroomUrl = `${base}${classroomPath(cal.courseId, cal.sessionId)}`;
  const content = invitationDocument({
    method,
    learners,
    host: new URL(base).hostname,
    cal,
    entries,
    organizer: { name: (await fullNameOf(db, cal.educatorId)) ?? 'Agora', email: senderAddress(app.config.mailFrom) },
    attendee: { name: u.firstName, email: u.email },
    classroomUrl,
  });
  const n = entries.length;
  const classes = `${n} class${n === 1 ? '' : 'es'}`;
  const forWhom = learners ? ` (for ${learners})` : '';
  const words: Record<InviteReason | 'learner-dropped', { subject: string; body: string }> = {
    enrolled: {
      subject: `Invitation: ${cal.courseTitle}`,
      body: `The ${classes} of "${cal.courseTitle}"${forWhom} for your calendar: open the attached invitation to add them. Your classroom has the join link or venue of each class.`,
    },
    'learner-dropped': {
      subject: `Updated invitation: ${cal.courseTitle}`,
      body: `A seat in "${cal.courseTitle}" was dropped. The classes stay in your calendar${learners ? ` for ${learners}, who still attend${seat && seat.names.length + (seat.self ? 1 : 0) > 1 ? '' : 's'}` : ''}: the attached update says so.`,
    },
    added: {
      subject: `New class times: ${cal.courseTitle}`,
      body: `The educator added ${classes} to your session of "${cal.courseTitle}": open the attached invitation to add them to your calendar.`,
    },
    moved: {
      subject: `Updated invitation: ${cal.courseTitle}`,
      body: `A class of "${cal.courseTitle}" moved. The attached update moves it in your calendar.`,
    },
    removed: {
      subject: `Cancelled class: ${cal.courseTitle}`,
      body: `A class of "${cal.courseTitle}" was removed from your session. The attached cancellation removes it from your calendar.`,
    },
    dropped: {
      subject: `Cancelled: ${cal.courseTitle}`,
      body: `You left "${cal.courseTitle}". The attached cancellation removes its ${classes} from your calendar.`,
    },
    'session-cancelled': {
      subject: `Cancelled: ${cal.courseTitle}`,
      body: `Your session of "${cal.courseTitle}" was cancelled. The attached cancellation removes its ${classes} from your calendar.`,
    },
  };
  const w = words[reason];
  const message = noticeEmail(u.email, u.firstName, {
    subject: w.subject,
    body: w.body,
    action: method === 'REQUEST' ? 'Open your classroom' : 'See the course',
    url: method === 'REQUEST' ? classroomUrl : `${base}/course/${cal.courseId}`,
    footer: 'You get this email because of your notification settings (class reminders and calendar invitations).',
  });
  await app.mailer.send({
    ...withUnsubscribe(message, unsubscribeUrl(app, job.userId, 'class_reminder'), scopeLabel('class_reminder')),
    icalEvent: { method, content },
  });
}

/** "Mia", "Mia and Leo", "Mia, Leo and Sam": whom a seat or a class is for. */
export function learnersPhrase(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The address of a From header ("Agora <hello@agora.test>" -> hello@agora.test). */
const senderAddress = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** Where a class takes place: its own place, else the course's address (in person); online: its link. */
export function venueOf(cal: Pick<SessionCalendar, 'format' | 'address' | 'city'>, t: { location: string | null }): string | null {
  if (t.location) return t.location;
  if (cal.format !== 'in_person') return null;
  const parts = [cal.address, cal.city].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length ? parts.join(', ') : null;
}

/** A map of an address (OpenStreetMap's search). */
export const mapUrlOf = (venue: string) => `https://www.openstreetmap.org/search?query=${encodeURIComponent(venue)}`;

/** The iCalendar document of an invitation (ical.js writes it: escaping, folding, CRLF). */
export function invitationDocument(o: {
  method: 'REQUEST' | 'CANCEL';
  /** Whom the account's seats are for, when they are its learner profiles' (ADR 0074): "Mia and Leo"; null: the holder alone. */
  learners?: string | null;
  host: string;
  cal: Pick<SessionCalendar, 'courseTitle' | 'format' | 'address' | 'city' | 'timeZone'>;
  entries: Entry[];
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  classroomUrl: string;
}): string {
  const vcalendar = new ICAL.Component(['vcalendar', [], []]);
  vcalendar.updatePropertyWithValue('prodid', '-//Agora//Class invitations//EN');
  vcalendar.updatePropertyWithValue('version', '2.0');
  vcalendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  vcalendar.updatePropertyWithValue('method', o.method);
  const stamp = ICAL.Time.fromJSDate(new Date(), true);
  for (const t of o.entries) {
    const ev = new ICAL.Component('vevent');
    ev.updatePropertyWithValue('uid', `class-${t.id}@${o.host}`);
    ev.updatePropertyWithValue('dtstamp', stamp);
    ev.updatePropertyWithValue('dtstart', ICAL.Time.fromJSDate(t.startsAt, true));
    ev.updatePropertyWithValue('dtend', ICAL.Time.fromJSDate(t.endsAt, true));
    ev.updatePropertyWithValue('sequence', t.sequence);
    ev.updatePropertyWithValue('status', o.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
    ev.updatePropertyWithValue('summary', o.learners ? `${o.cal.courseTitle} (for ${o.learners})` : o.cal.courseTitle);
    const venue = venueOf(o.cal, t);
    const where = t.meetingUrl ?? venue;
    if (where) ev.updatePropertyWithValue('location', where);
    ev.updatePropertyWithValue('url', t.meetingUrl ?? o.classroomUrl);
    const lines = [
      o.learners ? `For ${o.learners}.` : null,
      t.meetingUrl ? `Join online: ${t.meetingUrl}` : null,
      venue ? `Venue: ${venue} (map: ${mapUrlOf(venue)})` : null,
      `Classroom: ${o.classroomUrl}`,
      `The class keeps the time of ${o.cal.timeZone}; your calendar shows it in your own time zone.`,
    ].filter(Boolean);
    ev.updatePropertyWithValue('description', lines.join('\n'));
    const organizer = new ICAL.Property('organizer');
    organizer.setParameter('cn', o.organizer.name);
    organizer.setValue(`mailto:${o.organizer.email}`);
    ev.addProperty(organizer);
    const attendee = new ICAL.Property('attendee');
    attendee.setParameter('cn', o.attendee.name);
    attendee.setParameter('role', 'REQ-PARTICIPANT');
    attendee.setParameter('partstat', o.method === 'CANCEL' ? 'DECLINED' : 'ACCEPTED');
    attendee.setParameter('rsvp', 'FALSE');
    attendee.setValue(`mailto:${o.attendee.email}`);
    ev.addProperty(attendee);
    vcalendar.addSubcomponent(ev);
  }
  return `${vcalendar.toString()}\r\n`;
}
