-- Family accounts (ADR 0074): a course card says whom the course is for by age ("Ages 8-12"):
-- course_card (drizzle/0035, the one definition of a card) carries min_age and max_age, its
-- follower rewrites a card when they change, and every published course's card is written again.
CREATE OR REPLACE FUNCTION course_card(c course) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  select json_build_object(
    'id', c.id, 'title', c.title, 'summary', c.summary, 'category', c.category, 'level', c.level, 'format', c.format,
    'city', c.city, 'coverImage', c.cover_image, 'priceCents', c.price_cents, 'currency', c.currency,
    'ratingAvg', round(c.rating_avg::numeric, 2), 'ratingCount', c.rating_count, 'educatorName', c.educator_name,
    'nextStartOn', c.next_start_on, 'seatsLeft', c.seats_left, 'minAge', c.min_age, 'maxAge', c.max_age)::text
$fn$;
--> statement-breakpoint
DROP TRIGGER course_card_follow ON course;
--> statement-breakpoint
CREATE TRIGGER course_card_follow AFTER INSERT OR DELETE OR UPDATE OF id, title, summary, category, level, format, city,
  cover_image, price_cents, currency, rating_avg, rating_count, educator_name, next_start_on, seats_left, status, min_age, max_age ON course
  FOR EACH ROW EXECUTE FUNCTION course_card_follow();
--> statement-breakpoint
UPDATE course_card cc SET card = course_card(c) FROM course c WHERE c.id = cc.course_id;
