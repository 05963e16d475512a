CREATE TABLE "course_card" (
	"course_id" uuid PRIMARY KEY NOT NULL,
	"card" text NOT NULL
);
--> statement-breakpoint
-- A course's card (CourseCard, shared/courses-schemas.ts) as JSON text: the one definition of a
-- card, read by search (from course_card), explore and the landing page (from the course row).
CREATE OR REPLACE FUNCTION course_card(c course) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  select json_build_object(
    'id', c.id, 'title', c.title, 'summary', c.summary, 'category', c.category, 'level', c.level, 'format', c.format,
    'city', c.city, 'coverImage', c.cover_image, 'priceCents', c.price_cents, 'currency', c.currency,
    'ratingAvg', round(c.rating_avg::numeric, 2), 'ratingCount', c.rating_count, 'educatorName', c.educator_name,
    'nextStartOn', c.next_start_on, 'seatsLeft', c.seats_left)::text
$fn$;
--> statement-breakpoint
-- course_card follows `course` row by row, as course_term does (drizzle/0027): a course has a
-- card while it is published, rewritten when a column of the card changes. Only that course's row.
CREATE OR REPLACE FUNCTION course_card_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'published' AND (TG_OP = 'DELETE' OR NEW.status <> 'published' OR NEW.id <> OLD.id) THEN
    DELETE FROM course_card WHERE course_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'published' THEN
    INSERT INTO course_card (course_id, card) VALUES (NEW.id, course_card(NEW))
    ON CONFLICT (course_id) DO UPDATE SET card = excluded.card WHERE course_card.card IS DISTINCT FROM excluded.card;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER course_card_follow AFTER INSERT OR DELETE OR UPDATE OF id, title, summary, category, level, format, city,
  cover_image, price_cents, currency, rating_avg, rating_count, educator_name, next_start_on, seats_left, status ON course
  FOR EACH ROW EXECUTE FUNCTION course_card_follow();
--> statement-breakpoint
INSERT INTO course_card (course_id, card) SELECT c.id, course_card(c) FROM course c WHERE c.status = 'published';
