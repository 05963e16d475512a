CREATE TABLE "club_search_stat" (
	"col" text NOT NULL,
	"val" text NOT NULL,
	"freq" real NOT NULL,
	CONSTRAINT "club_search_stat_col_val_pk" PRIMARY KEY("col","val")
);
--> statement-breakpoint
DROP INDEX "club_category_idx";--> statement-breakpoint
ALTER TABLE "club" ADD COLUMN "search_name" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(city, '')), 'A')) STORED;--> statement-breakpoint
CREATE INDEX "club_search_name_idx" ON "club" USING gin ("search_name");--> statement-breakpoint
CREATE INDEX "club_category_idx" ON "club" USING btree ("category","member_count" DESC NULLS LAST,"id");--> statement-breakpoint
-- Relevance search walks this index in order and filters on search_name and the filter
-- columns; with them INCLUDEd the walk is index-only (no visit of the club row per
-- candidate). Drizzle cannot declare INCLUDE: the schema names the index, this adds it.
DROP INDEX "club_members_idx";--> statement-breakpoint
CREATE INDEX "club_members_idx" ON "club" USING btree ("member_count" DESC NULLS LAST,"id") INCLUDE ("search_name","category","city","online","visibility","next_event_at");
--> statement-breakpoint
DROP INDEX "club_category_idx";--> statement-breakpoint
CREATE INDEX "club_category_idx" ON "club" USING btree ("category","member_count" DESC NULLS LAST,"id") INCLUDE ("search_name","city","online","visibility","next_event_at");
--> statement-breakpoint
-- Club search's word and filter frequencies (clubs/search-clubs.ts), from pg_stats of club:
-- reading pg_stats itself in every search cost more than the search (its arrays are cast
-- from anyarray each time). Refreshed by the search module (at most hourly per server) and
-- by the scale seed after its ANALYZE.
CREATE OR REPLACE FUNCTION refresh_club_search_stat() RETURNS void LANGUAGE sql AS $$
  DELETE FROM club_search_stat;
  INSERT INTO club_search_stat (col, val, freq)
  SELECT col, val, sum(freq) FROM (
    SELECT s.attname::text AS col, e.val, e.freq
    FROM pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(val, freq)
    WHERE s.schemaname = current_schema() AND s.tablename = 'club' AND s.attname IN ('search', 'search_name') AND e.val IS NOT NULL
    UNION ALL
    SELECT s.attname::text, ':min', s.most_common_elem_freqs[cardinality(s.most_common_elems) + 1]
    FROM pg_stats s
    WHERE s.schemaname = current_schema() AND s.tablename = 'club' AND s.attname IN ('search', 'search_name') AND s.most_common_elems IS NOT NULL
    UNION ALL
    SELECT s.attname::text, CASE WHEN s.attname = 'city' THEN lower(v.val) ELSE v.val END, v.freq
    FROM pg_stats s, unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS v(val, freq)
    WHERE s.schemaname = current_schema() AND s.tablename = 'club' AND s.attname IN ('category', 'city', 'online', 'visibility')
    UNION ALL
    SELECT 'next_event_at', ':notnull', 1 - s.null_frac
    FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = 'club' AND s.attname = 'next_event_at'
    UNION ALL
    SELECT 'club', ':rows', greatest(c.reltuples, 0) FROM pg_class c WHERE c.oid = 'club'::regclass
  ) x GROUP BY col, val;
$$;
