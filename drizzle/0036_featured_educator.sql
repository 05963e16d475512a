CREATE TABLE "featured_educator" (
	"educator_id" uuid PRIMARY KEY NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "featured_educator" ADD CONSTRAINT "featured_educator_educator_id_user_id_fk" FOREIGN KEY ("educator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A change of who is featured changes /explore: every server drops its cached answers
-- (the notice drizzle/0004 sends for course rows).
CREATE TRIGGER featured_educator_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON featured_educator
  FOR EACH STATEMENT EXECUTE FUNCTION course_changed_notify();
--> statement-breakpoint
-- Educators already on Educator Pro are featured from now on (later plans go through payments).
INSERT INTO "featured_educator" ("educator_id") SELECT "user_id" FROM "payout_account" WHERE "plan" = 'pro' ON CONFLICT DO NOTHING;
