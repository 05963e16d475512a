CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE TABLE "calendar_feed" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feed_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "class_time" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"location" text,
	"meeting_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_time_order" CHECK ("class_time"."ends_at" > "class_time"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "course" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"educator_id" uuid NOT NULL,
	"educator_name" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"level" text NOT NULL,
	"language" text NOT NULL,
	"audience" text,
	"format" text NOT NULL,
	"city" text,
	"address" text,
	"cover_image" text,
	"price_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"installments" smallint,
	"refund_policy" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"rating_avg" real DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"next_start_on" date,
	"seats_left" integer DEFAULT 0 NOT NULL,
	"stripe_product_id" text,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(educator_name, '')), 'A') || setweight(to_tsvector('english', coalesce(summary, '')), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "course_price_nonnegative" CHECK ("course"."price_cents" >= 0),
	CONSTRAINT "course_installments_range" CHECK ("course"."installments" is null or "course"."installments" between 2 and 24),
	CONSTRAINT "course_status_valid" CHECK ("course"."status" in ('draft', 'published', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "course_session" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"capacity" integer NOT NULL,
	"min_to_run" integer DEFAULT 1 NOT NULL,
	"time_zone" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_session_dates" CHECK ("course_session"."ends_on" >= "course_session"."starts_on"),
	CONSTRAINT "course_session_capacity" CHECK ("course_session"."capacity" >= 1 and "course_session"."seats_taken" between 0 and "course_session"."capacity"),
	CONSTRAINT "course_session_min" CHECK ("course_session"."min_to_run" >= 1 and "course_session"."min_to_run" <= "course_session"."capacity")
);
--> statement-breakpoint
CREATE TABLE "enrolment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dropped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_rating_range" CHECK ("review"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "calendar_feed" ADD CONSTRAINT "calendar_feed_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_time" ADD CONSTRAINT "class_time_session_id_course_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."course_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course" ADD CONSTRAINT "course_educator_id_educator_user_id_fk" FOREIGN KEY ("educator_id") REFERENCES "public"."educator"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_session" ADD CONSTRAINT "course_session_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment" ADD CONSTRAINT "enrolment_session_id_course_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."course_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment" ADD CONSTRAINT "enrolment_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment" ADD CONSTRAINT "enrolment_learner_id_user_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_learner_id_user_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_time_session_idx" ON "class_time" USING btree ("session_id","starts_at");--> statement-breakpoint
CREATE INDEX "course_educator_idx" ON "course" USING btree ("educator_id");--> statement-breakpoint
CREATE INDEX "course_search_idx" ON "course" USING gin ("search") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_title_trgm_idx" ON "course" USING gin (title gin_trgm_ops) WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_published_next_idx" ON "course" USING btree ("next_start_on") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "course_session_course_idx" ON "course_session" USING btree ("course_id","starts_on");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_one_per_learner" ON "enrolment" USING btree ("session_id","learner_id") WHERE status <> 'dropped';--> statement-breakpoint
CREATE INDEX "enrolment_learner_idx" ON "enrolment" USING btree ("learner_id");--> statement-breakpoint
CREATE INDEX "enrolment_waitlist_idx" ON "enrolment" USING btree ("session_id","created_at") WHERE status = 'waitlisted';--> statement-breakpoint
CREATE INDEX "enrolment_course_idx" ON "enrolment" USING btree ("course_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_one_per_learner" ON "review" USING btree ("course_id","learner_id");
--> statement-breakpoint
ALTER TABLE "class_time" ADD CONSTRAINT "class_time_no_overlap" EXCLUDE USING gist ("session_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&);