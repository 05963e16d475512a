CREATE TABLE "search_word" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "course_fuzzy_idx";--> statement-breakpoint
CREATE INDEX "search_word_trgm_idx" ON "search_word" USING gist ("word" gist_trgm_ops);