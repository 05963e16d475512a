-- The course page's viewer part (docs/decisions/0071-course-page-viewer-part-function.md): what only the
-- viewer sees (their enrolments and waitlist places, the meeting links they may open, their review, whether
-- and from when they may review). The page's one statement (courses/course-service.ts) calls it only for a
-- viewer who has a part (the owner, an enrolled learner, a reviewer): in a function its subqueries are planned
-- and started only then, where inline they were started on every visit (most visits have no part).
CREATE OR REPLACE FUNCTION course_page_viewer_part(p_course uuid, p_educator uuid, p_viewer uuid) returns json
language plpgsql stable as $$
begin
  return json_build_object(
    'enrolments', (
      select json_object_agg(my.session_id, json_build_object('id', my.id, 'status', my.status, 'waitlistPosition',
        case when my.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = my.session_id and w.status = 'waitlisted' and w.created_at <= my.created_at) end,
        'offerExpiresAt', to_char(my.offer_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      from (select distinct on (m.session_id) m.id, m.session_id, m.status, m.created_at, m.offer_expires_at from enrolment m
            where m.course_id = p_course and m.learner_id = p_viewer and m.status <> 'dropped' order by m.session_id, m.created_at) my),
    'links', (
      select json_object_agg(t.id, t.meeting_url) from course_session s join class_time t on t.session_id = s.id
      where s.course_id = p_course and t.meeting_url is not null and (p_educator = p_viewer or exists (
        select 1 from enrolment m where m.session_id = s.id and m.course_id = p_course and m.learner_id = p_viewer and m.status in ('active', 'past_due')))),
    'reviewId', (select r.id from review r where r.course_id = p_course and r.learner_id = p_viewer),
    'canReview', p_educator <> p_viewer and exists (
      select 1 from enrolment m join course_session ms on ms.id = m.session_id
      where m.course_id = p_course and m.learner_id = p_viewer and m.status in ('active', 'past_due', 'completed')
        and (m.status = 'completed' or ms.ends_on < (now() at time zone 'UTC')::date
             or exists (select 1 from class_time t where t.session_id = m.session_id and t.starts_at <= now()))),
    'reviewOpensAt', (
      select to_char(min(t.starts_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from enrolment m join class_time t on t.session_id = m.session_id
      where p_educator <> p_viewer and m.course_id = p_course and m.learner_id = p_viewer and m.status in ('active', 'past_due')));
end $$;
