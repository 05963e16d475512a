-- The course page's viewer part (ADR 0071) with family accounts (ADR 0074): 'enrolments' is the account
-- holder's own seat per session (learner_profile_id null), as before; 'learnerEnrolments' is, per session,
-- the seats of the account's learner profiles (their ids; the page names them from the viewer's learners,
-- which the page's statement reads through accounts' relation). Links and reviews: any seat of the account.
CREATE OR REPLACE FUNCTION course_page_viewer_part(p_course uuid, p_educator uuid, p_viewer uuid) returns json
language plpgsql stable as $$
begin
  return json_build_object(
    'enrolments', (
      select json_object_agg(my.session_id, json_build_object('id', my.id, 'status', my.status, 'waitlistPosition',
        case when my.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = my.session_id and w.status = 'waitlisted' and w.created_at <= my.created_at) end,
        'offerExpiresAt', to_char(my.offer_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      from (select distinct on (m.session_id) m.id, m.session_id, m.status, m.created_at, m.offer_expires_at from enrolment m
            where m.course_id = p_course and m.learner_id = p_viewer and m.learner_profile_id is null and m.status <> 'dropped'
            order by m.session_id, m.created_at) my),
    'learnerEnrolments', (
      select json_object_agg(x.session_id, x.seats) from (
        select m.session_id, json_agg(json_build_object('learnerProfileId', m.learner_profile_id, 'id', m.id, 'status', m.status, 'waitlistPosition',
          case when m.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = m.session_id and w.status = 'waitlisted' and w.created_at <= m.created_at) end,
          'offerExpiresAt', to_char(m.offer_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by m.created_at) as seats
        from enrolment m
        where m.course_id = p_course and m.learner_id = p_viewer and m.learner_profile_id is not null and m.status <> 'dropped'
        group by m.session_id) x),
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
