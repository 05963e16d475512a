-- Issue 23 item 16, issue 24 item 2: set-up steps finished once per database (the demo data's), so
-- a first start cut short resumes where it stopped instead of leaving the demo half made.
CREATE TABLE "setup_step" (
	"name" text PRIMARY KEY NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL
);
