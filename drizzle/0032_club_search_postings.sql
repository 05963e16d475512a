CREATE TABLE "club_lexeme" (
	"lexeme" text PRIMARY KEY NOT NULL,
	"n_all" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "club_term" (
	"lexeme" text NOT NULL,
	"club_id" uuid NOT NULL,
	"tier" smallint NOT NULL,
	"member_count" integer NOT NULL,
	"category" text NOT NULL,
	"city" text,
	"online" boolean NOT NULL,
	"visibility" text NOT NULL,
	"next_event_at" timestamp with time zone,
	-- INCLUDE (Drizzle cannot declare it; the schema names the key): a filtered one-word
	-- search samples a word's postings in club id order (a random order), index-only.
	CONSTRAINT "club_term_lexeme_club_id_pk" PRIMARY KEY("lexeme","club_id") INCLUDE ("category","city","online","visibility","next_event_at")
);
--> statement-breakpoint
-- A one-word club search walks this index in relevance order (tier, most members) and
-- stops after k entries that pass the filters: index-only with the filter columns INCLUDEd.
CREATE INDEX "club_term_walk_idx" ON "club_term" USING btree ("lexeme","tier","member_count" DESC NULLS LAST,"club_id") INCLUDE ("category","city","online","visibility","next_event_at");
--> statement-breakpoint
-- club_term follows `club` row by row (docs/decisions/0026-clubs-at-scale.md): a club's
-- postings (one row per lexeme of `search`; tier 1 when the lexeme is in search_name) are
-- written with it, deleted with it, rewritten when its words change and updated in place
-- when a column they carry changes (member count, filters, next event). Only that club's rows.
CREATE OR REPLACE FUNCTION club_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF (OLD.search, OLD.search_name) IS NOT DISTINCT FROM (NEW.search, NEW.search_name) THEN
      IF (OLD.member_count, OLD.category, lower(OLD.city), OLD.online, OLD.visibility, OLD.next_event_at)
         IS DISTINCT FROM (NEW.member_count, NEW.category, lower(NEW.city), NEW.online, NEW.visibility, NEW.next_event_at) THEN
        UPDATE club_term SET member_count = NEW.member_count, category = NEW.category, city = lower(NEW.city), online = NEW.online,
          visibility = NEW.visibility, next_event_at = NEW.next_event_at
        WHERE lexeme = ANY (tsvector_to_array(NEW.search)) AND club_id = NEW.id;
      END IF;
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM club_term WHERE lexeme = ANY (tsvector_to_array(OLD.search)) AND club_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO club_term (lexeme, club_id, tier, member_count, category, city, online, visibility, next_event_at)
    SELECT l, NEW.id, CASE WHEN l = ANY (tsvector_to_array(NEW.search_name)) THEN 1 ELSE 2 END, NEW.member_count, NEW.category,
      lower(NEW.city), NEW.online, NEW.visibility, NEW.next_event_at
    FROM unnest(tsvector_to_array(NEW.search)) AS l;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER club_search_postings AFTER INSERT OR DELETE OR UPDATE OF name, description, city, category, online, visibility, member_count, next_event_at
  ON club FOR EACH ROW EXECUTE FUNCTION club_search_postings();
--> statement-breakpoint
-- club_lexeme follows `club` statement by statement: the counts move by the difference
-- between the old and the new lexemes of the clubs whose words the statement changed, in
-- one upsert in lexeme order (two statements never wait on each other in a cycle). One
-- trigger per event (PostgreSQL allows transition tables on single-event triggers only).
CREATE OR REPLACE FUNCTION club_search_lexemes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO club_lexeme AS s (lexeme, n_all)
    SELECT l, count(*) FROM new_rows n, unnest(tsvector_to_array(n.search)) AS l
    GROUP BY l ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all;
  ELSE
    INSERT INTO club_lexeme AS s (lexeme, n_all)
    SELECT l, -count(*) FROM old_rows o, unnest(tsvector_to_array(o.search)) AS l
    GROUP BY l ORDER BY l
    ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION club_search_lexemes_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO club_lexeme AS s (lexeme, n_all)
  WITH changed AS (
    SELECT o.search AS old_all, n.search AS new_all
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.search IS DISTINCT FROM n.search
  )
  SELECT l, sum(d) FROM (
    SELECT l, -1 AS d FROM changed, unnest(tsvector_to_array(old_all)) AS l
    UNION ALL SELECT l, 1 FROM changed, unnest(tsvector_to_array(new_all)) AS l
  ) d
  GROUP BY l HAVING sum(d) <> 0
  ORDER BY l
  ON CONFLICT (lexeme) DO UPDATE SET n_all = s.n_all + excluded.n_all;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER club_search_lexemes_insert AFTER INSERT ON club
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION club_search_lexemes();
--> statement-breakpoint
CREATE TRIGGER club_search_lexemes_delete AFTER DELETE ON club
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION club_search_lexemes();
--> statement-breakpoint
CREATE TRIGGER club_search_lexemes_update AFTER UPDATE ON club
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION club_search_lexemes_update();
--> statement-breakpoint
INSERT INTO club_term (lexeme, club_id, tier, member_count, category, city, online, visibility, next_event_at)
SELECT l, id, CASE WHEN l = ANY (tsvector_to_array(search_name)) THEN 1 ELSE 2 END, member_count, category, lower(city), online,
  visibility, next_event_at
FROM club, unnest(tsvector_to_array(search)) AS l
ORDER BY 1, 2;
--> statement-breakpoint
INSERT INTO club_lexeme (lexeme, n_all)
SELECT word, ndoc FROM ts_stat($$select search from club$$);
