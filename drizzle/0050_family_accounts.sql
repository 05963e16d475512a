-- Family accounts (ADR 0074): learner profiles of an account, a seat per learner, course age ranges.
CREATE TABLE "learner_profile" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"age_min" smallint NOT NULL,
	"age_max" smallint NOT NULL,
	"ages_as_of" date NOT NULL,
	"notes" text,
	"became_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learner_profile_ages_valid" CHECK ("learner_profile"."age_min" between 0 and 120 and "learner_profile"."age_max" between "learner_profile"."age_min" and 120)
);
--> statement-breakpoint
DROP INDEX "enrolment_one_per_learner";
--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "min_age" smallint;
--> statement-breakpoint
ALTER TABLE "course" ADD COLUMN "max_age" smallint;
--> statement-breakpoint
ALTER TABLE "enrolment" ADD COLUMN "learner_profile_id" uuid;
--> statement-breakpoint
ALTER TABLE "learner_profile" ADD CONSTRAINT "learner_profile_account_id_user_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learner_profile" ADD CONSTRAINT "learner_profile_became_user_id_user_id_fk" FOREIGN KEY ("became_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "learner_profile_account_idx" ON "learner_profile" USING btree ("account_id","created_at");
--> statement-breakpoint
ALTER TABLE "enrolment" ADD CONSTRAINT "enrolment_learner_profile_id_learner_profile_id_fk" FOREIGN KEY ("learner_profile_id") REFERENCES "public"."learner_profile"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "enrolment_learner_profile_idx" ON "enrolment" USING btree ("learner_profile_id") WHERE "enrolment"."learner_profile_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_one_per_learner" ON "enrolment" USING btree ("session_id","learner_id",coalesce("learner_profile_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE status <> 'dropped';
--> statement-breakpoint
ALTER TABLE "course" ADD CONSTRAINT "course_ages_valid" CHECK (("course"."min_age" is null or "course"."min_age" between 0 and 120) and ("course"."max_age" is null or "course"."max_age" between coalesce("course"."min_age", 0) and 120));
