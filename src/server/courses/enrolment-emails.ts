import { eq, inArray } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { course } from '../db/schema/courses.js';
import type { EmailMessage } from '../email/mailer.js';
import { sessionCancelledEmail, waitlistPromotionEmail } from '../email/templates.js';

type Mailing = Pick<AppServices, 'database' | 'mailer' | 'config' | 'log'>;

/** Emails learners about a change to their enrolment, after the transaction committed; a failed email is logged, never undoes the change. */
async function notifyLearners(
  app: Mailing,
  learnerIds: string[],
  courseId: string,
  compose: (row: { email: string; firstName: string; title: string }) => EmailMessage,
) {
  if (!learnerIds.length) return;
  const rows = await app.database.db
    .select({ email: user.email, firstName: user.firstName, title: course.title })
    .from(user)
    .innerJoin(course, eq(course.id, courseId))
    .where(inArray(user.id, learnerIds));
  for (const row of rows) {
    try {
      await app.mailer.send(compose(row));
    } catch (err) {
      app.log.error({ err, to: row.email }, 'could not send an enrolment email');
    }
  }
}

/** A freed seat went to these waitlisted learners. */
export function notifyPromotions(app: Mailing, learnerIds: string[], courseId: string) {
  return notifyLearners(app, learnerIds, courseId, (r) =>
    waitlistPromotionEmail(r.email, r.firstName, r.title, `${app.config.publicUrl}/course/${courseId}`),
  );
}

/** The educator cancelled the course session these learners were in. */
export function notifyCancellation(app: Mailing, learnerIds: string[], courseId: string) {
  return notifyLearners(app, learnerIds, courseId, (r) =>
    sessionCancelledEmail(r.email, r.firstName, r.title, `${app.config.publicUrl}/course/${courseId}`),
  );
}

/** Courses' own listeners: learners hear of a seat or a cancellation once it is committed. */
export function subscribeEnrolmentEmails(app: AppServices) {
  app.courseEvents.afterCommit('waitlist.promoted', (e) => notifyPromotions(app, e.learnerIds, e.courseId));
  app.courseEvents.afterCommit('course-session.cancelled', (e) => notifyCancellation(app, e.droppedLearnerIds, e.courseId));
}
