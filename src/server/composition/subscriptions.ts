import type { FastifyInstance } from 'fastify';
import { registerAttendanceJobs } from '../attendance/certificates.js';
import { subscribeAttendance } from '../attendance/subscriptions.js';
import { subscribeClassroom } from '../classroom/subscriptions.js';
import { registerClubJobs } from '../clubs/reminders.js';
import { subscribeClubs } from '../clubs/subscriptions.js';
import { subscribeContact } from '../contact/subscriptions.js';
import type { CalendarSources } from '../courses/calendar.js';
import { subscribeCourses } from '../courses/subscriptions.js';
import { registerClassReminderJobs } from '../courses/class-reminders.js';
import { registerCourseJobs } from '../courses/waitlist-offers.js';
import { subscribeMailbox } from '../mailbox/subscriptions.js';
import { registerUnreadReminder } from '../mailbox/unread-reminder.js';
import { registerInviteJobs } from '../notifications/calendar-invites.js';
import { registerNotificationJobs } from '../notifications/email-jobs.js';
import { subscribeNotifications } from '../notifications/subscriptions.js';
import { subscribePayments } from '../payments/subscriptions.js';

/**
 * Every domain's wiring at start-up, in one place (docs/decisions/0036-wiring-you-can-see.md):
 * each domain subscribes to the events of those below it in its own `subscriptions.ts`
 * (route plugins only register routes), and its background jobs are registered here.
 *
 * The order is the order in which listeners of one event run: payments before notifications
 * (a cancelled session's refunds are planned before the learners are told), and, erasing an
 * account (`user.erased`, ADR 0024), notifications last, so that what the other domains
 * announce to the erased user in that transaction is erased too.
 */
export function subscribeDomains(app: FastifyInstance, { calendarSources }: { calendarSources: CalendarSources }) {
  subscribeCourses(app);
  subscribePayments(app);
  subscribeAttendance(app);
  subscribeClassroom(app);
  subscribeMailbox(app);
  subscribeClubs(app, { calendarSources });
  subscribeContact(app);
  subscribeNotifications(app);

  // Background jobs (jobs/queue.ts): club reminders and next events; notification emails at
  // once, the daily digest and fan-outs (ADR 0015); a message still unread after a while (ADR 0029);
  // a paid session's waitlist offer that lapsed (ADR 0067); class reminders and calendar
  // invitations (ADR 0068); certificates due at a session's end (ADR 0069).
  registerClubJobs(app);
  registerCourseJobs(app);
  registerClassReminderJobs(app);
  registerNotificationJobs(app);
  registerInviteJobs(app);
  registerUnreadReminder(app);
  registerAttendanceJobs(app);
}
