ALTER TABLE "course" ADD COLUMN "search_title" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(educator_name, '')), 'A')) STORED;--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "quality" real GENERATED ALWAYS AS ((rating_avg * rating_count + 20) / (rating_count + 5)) STORED;--> statement-breakpoint
CREATE INDEX "course_search_title_idx" ON "course" USING gin ("search_title") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_quality_idx" ON "course" USING btree ("quality" DESC NULLS LAST,"id") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_rating_idx" ON "course" USING btree ("rating_avg" DESC NULLS LAST,"rating_count" DESC NULLS LAST,"id") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_price_idx" ON "course" USING btree ("price_cents","id") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_city_idx" ON "course" USING btree (lower(city),"next_start_on") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_fuzzy_idx" ON "course" USING gist ((title || ' ' || educator_name) gist_trgm_ops) WHERE status = 'published';