-- Search and explore keep a small in-memory result cache per server (courses/search-cache.ts).
-- Any statement that changes course rows (publish, edit, seats, ratings: all of them update
-- the course row) tells every server to drop its cache, whichever process made the change.
CREATE OR REPLACE FUNCTION course_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('course_changed', TG_OP);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER course_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON course
  FOR EACH STATEMENT EXECUTE FUNCTION course_changed_notify();
