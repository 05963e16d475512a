CREATE TABLE "course_view_day" (
	"course_id" uuid NOT NULL,
	"educator_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "course_view_day_course_id_day_pk" PRIMARY KEY("course_id","day"),
	CONSTRAINT "course_view_day_views" CHECK ("course_view_day"."views" >= 0)
);
--> statement-breakpoint
CREATE TABLE "course_view_salt" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_view_seen" (
	"course_id" uuid NOT NULL,
	"day" date NOT NULL,
	"viewer_key" text NOT NULL,
	CONSTRAINT "course_view_seen_day_course_id_viewer_key_pk" PRIMARY KEY("day","course_id","viewer_key")
);
--> statement-breakpoint
ALTER TABLE "course_view_day" ADD CONSTRAINT "course_view_day_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_view_day_educator_idx" ON "course_view_day" USING btree ("educator_id","day","course_id","views");