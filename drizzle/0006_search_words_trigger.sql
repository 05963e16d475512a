-- The words of course titles and educator names, for typo correction in search
-- (courses/search-service.ts). Only added, never removed: a word no course has any more
-- corrects to a search that finds nothing, which the search then ignores.
CREATE OR REPLACE FUNCTION course_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sorted, so two transactions adding the same new words never wait on each other in a cycle.
  INSERT INTO search_word (word)
  SELECT DISTINCT w FROM regexp_split_to_table(lower(NEW.title || ' ' || NEW.educator_name), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3
  ORDER BY w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER course_search_words AFTER INSERT OR UPDATE OF title, educator_name ON course
  FOR EACH ROW EXECUTE FUNCTION course_search_words();
--> statement-breakpoint
INSERT INTO search_word (word)
SELECT DISTINCT w FROM course, regexp_split_to_table(lower(title || ' ' || educator_name), '[^[:alnum:]]+') AS w
WHERE length(w) >= 3
ON CONFLICT DO NOTHING;
