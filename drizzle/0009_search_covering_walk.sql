-- Relevance search walks this index in order and filters on search_title and the filter
-- columns; with them INCLUDEd the walk is index-only (no visit of the wide course row per
-- candidate). Drizzle cannot declare INCLUDE: the schema names the index, this adds it.
DROP INDEX "course_bookable_quality_idx";--> statement-breakpoint
CREATE INDEX "course_relevance_idx" ON "course" USING btree ((next_start_on is null),"quality" DESC NULLS LAST,"id") INCLUDE ("search_title","category","level","format","city","price_cents","next_start_on","seats_left") WHERE status = 'published';
