-- The classroom of a course session (issue 25, ADR 0068): posts, replies, files, removed learners, reports.
CREATE TABLE IF NOT EXISTS "classroom_post" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL REFERENCES "course"("id") ON DELETE cascade,
	"session_id" uuid NOT NULL REFERENCES "course_session"("id") ON DELETE cascade,
	"author_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"body" text NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "classroom_post_session_idx" ON "classroom_post" USING btree ("session_id","pinned" DESC,"created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "classroom_reply" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL REFERENCES "classroom_post"("id") ON DELETE cascade,
	"author_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"body" text NOT NULL,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "classroom_reply_post_idx" ON "classroom_reply" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "classroom_file" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL REFERENCES "course_session"("id") ON DELETE cascade,
	"post_id" uuid REFERENCES "classroom_post"("id") ON DELETE cascade,
	"uploader_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "classroom_file_post_idx" ON "classroom_file" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "classroom_file_session_idx" ON "classroom_file" USING btree ("session_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "classroom_removal" (
	"session_id" uuid NOT NULL REFERENCES "course_session"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classroom_removal_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "classroom_report" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL REFERENCES "classroom_post"("id") ON DELETE cascade,
	"reporter_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classroom_report_reason" CHECK (length("classroom_report"."reason") between 1 and 500)
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "classroom_report_once" ON "classroom_report" USING btree ("post_id","reporter_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "classroom_report_reporter_idx" ON "classroom_report" USING btree ("reporter_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "classroom_version" (
	"session_id" uuid PRIMARY KEY NOT NULL REFERENCES "course_session"("id") ON DELETE cascade,
	"version" bigint DEFAULT 1 NOT NULL
);
