-- Attendance and certificates (issue 25, ADR 0068): one mark per learner and class time (the
-- primary key makes concurrent taps one row), a course's certificate rule, certificates as snapshots.
CREATE TABLE IF NOT EXISTS "attendance_mark" (
	"class_time_id" uuid NOT NULL REFERENCES "class_time"("id") ON DELETE cascade,
	"learner_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"session_id" uuid NOT NULL REFERENCES "course_session"("id") ON DELETE cascade,
	"mark" text NOT NULL,
	"marked_by" uuid REFERENCES "user"("id") ON DELETE set null,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_mark_class_time_id_learner_id_pk" PRIMARY KEY("class_time_id","learner_id"),
	CONSTRAINT "attendance_mark_valid" CHECK ("attendance_mark"."mark" in ('present', 'late', 'absent'))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "attendance_mark_session_idx" ON "attendance_mark" USING btree ("session_id","learner_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "certificate_rule" (
	"course_id" uuid PRIMARY KEY NOT NULL REFERENCES "course"("id") ON DELETE cascade,
	"min_percent" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_rule_percent" CHECK ("certificate_rule"."min_percent" between 1 and 100)
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "certificate" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"learner_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"session_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"educator_id" uuid NOT NULL,
	"learner_name" text NOT NULL,
	"course_title" text NOT NULL,
	"educator_name" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"hours_attended" real NOT NULL,
	"hours_total" real NOT NULL,
	"classes_attended" integer NOT NULL,
	"classes_total" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "certificate_code_idx" ON "certificate" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "certificate_one_per_learner" ON "certificate" USING btree ("session_id","learner_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "certificate_learner_idx" ON "certificate" USING btree ("learner_id");
