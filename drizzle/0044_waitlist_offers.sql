-- A paid session's waitlist makes offers (issue 26.1, ADR 0059): the first in line is offered a freed
-- seat, held for them (counted in seats_taken) until offer_expires_at; the educator sets how long.
ALTER TABLE "course" ADD COLUMN IF NOT EXISTS "waitlist_hold_minutes" integer DEFAULT 1440 NOT NULL;--> statement-breakpoint
ALTER TABLE "course" ADD CONSTRAINT "course_waitlist_hold_range" CHECK ("course"."waitlist_hold_minutes" between 1 and 10080);--> statement-breakpoint
ALTER TABLE "enrolment" ADD COLUMN IF NOT EXISTS "offer_expires_at" timestamp with time zone;
