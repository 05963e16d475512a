ALTER TABLE "club" ADD COLUMN "search_name" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(city, '')), 'A')) STORED;--> statement-breakpoint
CREATE INDEX "club_search_name_idx" ON "club" USING gin ("search_name");--> statement-breakpoint
-- Relevance search walks this index in order and filters on search_name and the filter
-- columns; with them INCLUDEd the walk is index-only (no visit of the club row per
-- candidate). Drizzle cannot declare INCLUDE: the schema names the index, this adds it.
DROP INDEX "club_members_idx";--> statement-breakpoint
CREATE INDEX "club_members_idx" ON "club" USING btree ("member_count" DESC NULLS LAST,"id") INCLUDE ("search_name","category","city","online","visibility","next_event_at");
--> statement-breakpoint
DROP INDEX "club_category_idx";--> statement-breakpoint
CREATE INDEX "club_category_idx" ON "club" USING btree ("category","member_count" DESC NULLS LAST,"id") INCLUDE ("search_name","city","online","visibility","next_event_at");
