CREATE TABLE "course_term" (
	"lexeme" text NOT NULL,
	"course_id" uuid NOT NULL,
	"unbookable" boolean NOT NULL,
	"quality" real,
	"category" text NOT NULL,
	"level" text NOT NULL,
	"format" text NOT NULL,
	"city" text,
	"price_cents" integer NOT NULL,
	"next_start_on" date,
	"seats_left" integer NOT NULL,
	-- INCLUDE (Drizzle cannot declare it; the schema names the key): a filtered one-word
	-- search samples a word's postings in course id order (a random order), index-only.
	CONSTRAINT "course_term_lexeme_course_id_pk" PRIMARY KEY("lexeme","course_id") INCLUDE ("category","level","format","city","price_cents","next_start_on","seats_left")
);
--> statement-breakpoint
CREATE TABLE "search_lexeme" (
	"lexeme" text PRIMARY KEY NOT NULL,
	"n_all" integer NOT NULL,
	"n_title" integer NOT NULL
);
--> statement-breakpoint
-- The walk of a one-word search is index-only: the filter columns are INCLUDEd (Drizzle
-- cannot declare INCLUDE; the schema names the index).
CREATE INDEX "course_term_walk_idx" ON "course_term" USING btree ("lexeme","unbookable","quality" DESC NULLS LAST,"course_id") INCLUDE ("category","level","format","city","price_cents","next_start_on","seats_left");--> statement-breakpoint
-- course_term follows `course` row by row (docs/decisions/0024-course-search-postings.md):
-- the postings of a course (one row per lexeme of search_title) are rewritten when it is
-- published, unpublished or deleted, or when a column they carry changes (title, educator
-- name, next start, seats, rating, filter columns). Only that course's rows are touched.
CREATE OR REPLACE FUNCTION course_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_pub boolean := TG_OP <> 'INSERT' AND OLD.status = 'published';
  is_pub boolean := TG_OP <> 'DELETE' AND NEW.status = 'published';
BEGIN
  IF NOT was_pub AND NOT is_pub THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND was_pub AND is_pub
     AND (OLD.search_title, OLD.next_start_on, OLD.quality, OLD.category, OLD.level, OLD.format, lower(OLD.city), OLD.price_cents, OLD.seats_left)
         IS NOT DISTINCT FROM (NEW.search_title, NEW.next_start_on, NEW.quality, NEW.category, NEW.level, NEW.format, lower(NEW.city), NEW.price_cents, NEW.seats_left) THEN
    RETURN NULL;
  END IF;
  IF was_pub THEN
    DELETE FROM course_term WHERE lexeme = ANY (tsvector_to_array(OLD.search_title)) AND course_id = OLD.id;
  END IF;
  IF is_pub THEN
    INSERT INTO course_term (lexeme, course_id, unbookable, quality, category, level, format, city, price_cents, next_start_on, seats_left)
    SELECT l, NEW.id, NEW.next_start_on IS NULL, NEW.quality, NEW.category, NEW.level, NEW.format, lower(NEW.city), NEW.price_cents,
      NEW.next_start_on, NEW.seats_left
    FROM unnest(tsvector_to_array(NEW.search_title)) AS l;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER course_search_postings AFTER INSERT OR DELETE OR UPDATE ON course
  FOR EACH ROW EXECUTE FUNCTION course_search_postings();
--> statement-breakpoint
-- search_lexeme follows `course` statement by statement: the counts move by the difference
-- between the old and the new lexemes of the published courses the statement changed (only
-- rows whose words or status changed), in one upsert in lexeme order, so two statements
-- never wait on each other in a cycle however many courses each changed. One trigger per
-- event (PostgreSQL allows transition tables on single-event triggers only).
CREATE OR REPLACE FUNCTION course_search_lexemes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_lexeme AS s (lexeme, n_all, n_title)
    SELECT l, sum(d_all), sum(d_title) FROM (
      SELECT l, 1 AS d_all, 0 AS d_title FROM new_rows n, unnest(tsvector_to_array(n.search)) AS l WHERE n.status = 'published'
      UNION ALL SELECT l, 0, 1 FROM new_rows n, unnest(tsvector_to_array(n.search_title)) AS l WHERE n.status = 'published'
    ) d
    GROUP BY l HAVING sum(d_all) <> 0 OR sum(d_title) <> 0
    ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all, n_title = s.n_title + excluded.n_title;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO search_lexeme AS s (lexeme, n_all, n_title)
    SELECT l, sum(d_all), sum(d_title) FROM (
      SELECT l, -1 AS d_all, 0 AS d_title FROM old_rows o, unnest(tsvector_to_array(o.search)) AS l WHERE o.status = 'published'
      UNION ALL SELECT l, 0, -1 FROM old_rows o, unnest(tsvector_to_array(o.search_title)) AS l WHERE o.status = 'published'
    ) d
    GROUP BY l HAVING sum(d_all) <> 0 OR sum(d_title) <> 0
    ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all, n_title = s.n_title + excluded.n_title;
  ELSE
    INSERT INTO search_lexeme AS s (lexeme, n_all, n_title)
    WITH changed AS (
      SELECT o.status = 'published' AS was_pub, o.search AS old_all, o.search_title AS old_title,
             n.status = 'published' AS is_pub, n.search AS new_all, n.search_title AS new_title
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.status = 'published' OR n.status = 'published')
        AND (o.status, o.search, o.search_title) IS DISTINCT FROM (n.status, n.search, n.search_title)
    )
    SELECT l, sum(d_all), sum(d_title) FROM (
      SELECT l, -1 AS d_all, 0 AS d_title FROM changed, unnest(tsvector_to_array(old_all)) AS l WHERE was_pub
      UNION ALL SELECT l, 0, -1 FROM changed, unnest(tsvector_to_array(old_title)) AS l WHERE was_pub
      UNION ALL SELECT l, 1, 0 FROM changed, unnest(tsvector_to_array(new_all)) AS l WHERE is_pub
      UNION ALL SELECT l, 0, 1 FROM changed, unnest(tsvector_to_array(new_title)) AS l WHERE is_pub
    ) d
    GROUP BY l HAVING sum(d_all) <> 0 OR sum(d_title) <> 0
    ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all, n_title = s.n_title + excluded.n_title;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER course_search_lexemes_insert AFTER INSERT ON course
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_search_lexemes();
--> statement-breakpoint
CREATE TRIGGER course_search_lexemes_update AFTER UPDATE ON course
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION course_search_lexemes();
--> statement-breakpoint
CREATE TRIGGER course_search_lexemes_delete AFTER DELETE ON course
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_search_lexemes();
--> statement-breakpoint
INSERT INTO course_term (lexeme, course_id, unbookable, quality, category, level, format, city, price_cents, next_start_on, seats_left)
SELECT l, id, next_start_on IS NULL, quality, category, level, format, lower(city), price_cents, next_start_on, seats_left
FROM course, unnest(tsvector_to_array(search_title)) AS l
WHERE status = 'published';
--> statement-breakpoint
INSERT INTO search_lexeme (lexeme, n_all, n_title)
SELECT a.word, a.ndoc, coalesce(t.ndoc, 0)
FROM ts_stat($$select search from course where status = 'published'$$) a
LEFT JOIN ts_stat($$select search_title from course where status = 'published'$$) t ON t.word = a.word;

--> statement-breakpoint
-- The course page sums the educator's rating over their published courses: with the two
-- columns INCLUDEd that is an index-only scan (a few index pages), not a visit of every
-- course row of the educator (~50 heap pages of the wide table at 100k courses).
CREATE INDEX "course_educator_rating_idx" ON "course" USING btree ("educator_id") INCLUDE ("rating_avg","rating_count") WHERE status = 'published';
