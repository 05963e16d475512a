-- The course page's answer is cached per server, split in two (docs/decisions/0031-course-page-cache.md):
-- the part every viewer sees and the viewer's own part. The shared part is served from the
-- cache while its educator's version below is the one it was built under. Every change to
-- what the page shows (the course and the educator's other courses, for their rating; its
-- sessions, class times, enrolments and reviews; the educator's profile; a name or picture
-- of the educator or of a reviewer) gives the educator a new version, in the transaction
-- that makes the change, at its commit: a reader sees the new data and the new version
-- together, never one without the other.
CREATE TABLE "course_page_version" (
	"educator_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE SEQUENCE "course_page_version_seq";
--> statement-breakpoint
-- Changes noted during a transaction, one row per educator per statement; each becomes a
-- new version at commit and is deleted. Statement triggers only insert here (no lock on a
-- shared row while the transaction goes on, so no deadlock with the row locks it takes
-- later); the version row is locked at commit only, for the instant of the update.
CREATE TABLE "course_page_change" (
	"educator_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION course_page_change_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO course_page_version (educator_id, version) VALUES (NEW.educator_id, nextval('course_page_version_seq'))
  ON CONFLICT (educator_id) DO UPDATE SET version = excluded.version;
  DELETE FROM course_page_change WHERE ctid = NEW.ctid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER course_page_change_commit AFTER INSERT ON course_page_change
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION course_page_change_commit();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_course() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT educator_id FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT educator_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_course_insert AFTER INSERT ON "course"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course();
--> statement-breakpoint
CREATE TRIGGER course_page_course_update AFTER UPDATE ON "course"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course();
--> statement-breakpoint
CREATE TRIGGER course_page_course_delete AFTER DELETE ON "course"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_course_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM new_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM old_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_course_session_insert AFTER INSERT ON "course_session"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course_session();
--> statement-breakpoint
CREATE TRIGGER course_page_course_session_update AFTER UPDATE ON "course_session"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course_session();
--> statement-breakpoint
CREATE TRIGGER course_page_course_session_delete AFTER DELETE ON "course_session"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_course_session();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_enrolment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM new_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM old_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_enrolment_insert AFTER INSERT ON "enrolment"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_enrolment();
--> statement-breakpoint
CREATE TRIGGER course_page_enrolment_update AFTER UPDATE ON "enrolment"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_enrolment();
--> statement-breakpoint
CREATE TRIGGER course_page_enrolment_delete AFTER DELETE ON "enrolment"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_enrolment();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_review() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM new_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT course_id FROM old_rows) x JOIN course c ON c.id = x.course_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_review_insert AFTER INSERT ON "review"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_review();
--> statement-breakpoint
CREATE TRIGGER course_page_review_update AFTER UPDATE ON "review"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_review();
--> statement-breakpoint
CREATE TRIGGER course_page_review_delete AFTER DELETE ON "review"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_review();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_class_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT session_id FROM new_rows) x JOIN course_session s ON s.id = x.session_id JOIN course c ON c.id = s.course_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT c.educator_id FROM (SELECT DISTINCT session_id FROM old_rows) x JOIN course_session s ON s.id = x.session_id JOIN course c ON c.id = s.course_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_class_time_insert AFTER INSERT ON "class_time"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_class_time();
--> statement-breakpoint
CREATE TRIGGER course_page_class_time_update AFTER UPDATE ON "class_time"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_class_time();
--> statement-breakpoint
CREATE TRIGGER course_page_class_time_delete AFTER DELETE ON "class_time"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_class_time();
--> statement-breakpoint
CREATE FUNCTION course_page_changed_educator() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT user_id FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO course_page_change (educator_id) SELECT DISTINCT user_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_educator_update AFTER UPDATE ON "educator"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_educator();
--> statement-breakpoint
CREATE TRIGGER course_page_educator_delete AFTER DELETE ON "educator"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_educator();
--> statement-breakpoint
-- A user's name or picture is on the pages they teach and the pages they reviewed (a
-- sign-in, which updates the row too, changes nothing there).
CREATE FUNCTION course_page_changed_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.first_name, n.last_name, n.profile_image) IS DISTINCT FROM (o.first_name, o.last_name, o.profile_image)
  )
  INSERT INTO course_page_change (educator_id)
  SELECT id FROM changed
  UNION
  SELECT c.educator_id FROM review r JOIN course c ON c.id = r.course_id WHERE r.learner_id IN (SELECT id FROM changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER course_page_user_update AFTER UPDATE ON "user"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_page_changed_user();
