-- Course search by a learner's age (docs/decisions/0081-search-by-age.md): the title postings
-- (course_term, drizzle/0027) carry the course's age range, as they carry the other filter
-- columns, so a one-word search filtered by age still walks its postings index-only.
ALTER TABLE "course_term" ADD COLUMN "min_age" smallint;--> statement-breakpoint
ALTER TABLE "course_term" ADD COLUMN "max_age" smallint;--> statement-breakpoint
CREATE OR REPLACE FUNCTION course_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_pub boolean := TG_OP <> 'INSERT' AND OLD.status = 'published';
  is_pub boolean := TG_OP <> 'DELETE' AND NEW.status = 'published';
BEGIN
  IF NOT was_pub AND NOT is_pub THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND was_pub AND is_pub
     AND (OLD.search_title, OLD.next_start_on, OLD.quality, OLD.category, OLD.level, OLD.format, lower(OLD.city), OLD.price_cents, OLD.seats_left, OLD.min_age, OLD.max_age)
         IS NOT DISTINCT FROM (NEW.search_title, NEW.next_start_on, NEW.quality, NEW.category, NEW.level, NEW.format, lower(NEW.city), NEW.price_cents, NEW.seats_left, NEW.min_age, NEW.max_age) THEN
    RETURN NULL;
  END IF;
  IF was_pub THEN
    DELETE FROM course_term WHERE lexeme = ANY (tsvector_to_array(OLD.search_title)) AND course_id = OLD.id;
  END IF;
  IF is_pub THEN
    INSERT INTO course_term (lexeme, course_id, unbookable, quality, category, level, format, city, price_cents, next_start_on, seats_left, min_age, max_age)
    SELECT l, NEW.id, NEW.next_start_on IS NULL, NEW.quality, NEW.category, NEW.level, NEW.format, lower(NEW.city), NEW.price_cents,
      NEW.next_start_on, NEW.seats_left, NEW.min_age, NEW.max_age
    FROM unnest(tsvector_to_array(NEW.search_title)) AS l;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
UPDATE "course_term" t SET "min_age" = c.min_age, "max_age" = c.max_age
  FROM "course" c
  WHERE c.id = t.course_id AND (c.min_age IS NOT NULL OR c.max_age IS NOT NULL);--> statement-breakpoint
ALTER TABLE "course_term" DROP CONSTRAINT "course_term_lexeme_course_id_pk";--> statement-breakpoint
ALTER TABLE "course_term" ADD CONSTRAINT "course_term_lexeme_course_id_pk" PRIMARY KEY("lexeme","course_id")
  INCLUDE ("category","level","format","city","price_cents","next_start_on","seats_left","min_age","max_age");--> statement-breakpoint
DROP INDEX "course_term_walk_idx";--> statement-breakpoint
CREATE INDEX "course_term_walk_idx" ON "course_term" USING btree ("lexeme","unbookable","quality" DESC NULLS LAST,"course_id")
  INCLUDE ("category","level","format","city","price_cents","next_start_on","seats_left","min_age","max_age");
