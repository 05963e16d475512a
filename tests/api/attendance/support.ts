import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { call, get } from '../../support/http.js';
import { queryRows } from '../../support/courses.js';

/** Attendance test helpers (issue 25). */

export const markUrl = (courseId: string, sessionId: string, classTimeId: string, learnerId: string) =>
  `/api/courses/${courseId}/sessions/${sessionId}/class-times/${classTimeId}/attendance/${learnerId}`;

export const mark = (
  app: TestApp,
  who: { cookie?: string },
  ids: { courseId: string; sessionId: string; classTimeId: string; learnerId: string },
  value: string,
) => call(app, 'PUT', markUrl(ids.courseId, ids.sessionId, ids.classTimeId, ids.learnerId), { mark: value }, { cookie: who.cookie });

export const sheet = (app: TestApp, who: { cookie?: string }, courseId: string, sessionId: string) =>
  get(app, `/api/courses/${courseId}/sessions/${sessionId}/attendance`, { cookie: who.cookie });

export const setRule = (app: TestApp, who: { cookie?: string }, courseId: string, minPercent: number | null) =>
  call(app, 'PUT', `/api/courses/${courseId}/certificate-rule`, { minPercent }, { cookie: who.cookie });

/** Every class time of the session moved into the past, one day apart, keeping their order (the last ended an hour ago). */
export async function sessionEnded(app: TestApp, sessionId: string): Promise<void> {
  await app.database.db.execute(sql`
    update class_time t set starts_at = now() - make_interval(days => o.rev) - interval '3 hours',
                            ends_at = now() - make_interval(days => o.rev) - interval '1 hour'
      from (select id, (count(*) over () - row_number() over (order by starts_at))::int as rev from class_time where session_id = ${sessionId}) o
     where t.id = o.id`);
}

export async function certificatesOf(app: TestApp, sessionId: string) {
  return queryRows<{ learner_id: string; code: string; course_title: string; revoked_at: Date | null }>(
    app,
    sql`select learner_id, code, course_title, revoked_at from certificate where session_id = ${sessionId} order by learner_id`,
  );
}
