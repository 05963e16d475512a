-- Class reminders and calendar invitations (issue 25, ADR 0068).
-- A class time's SEQUENCE (RFC 5545): raised each time it moves, so calendars take the update.
ALTER TABLE "class_time" ADD COLUMN IF NOT EXISTS "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A reminder sent: one row per class time, person, offset and start, written in the announcing
-- transaction, so a job delivered twice (or two at once) reminds once; a moved class (a new start) is reminded anew.
CREATE TABLE IF NOT EXISTS "class_reminder_sent" (
	"class_time_id" uuid NOT NULL REFERENCES "class_time"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"before" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_reminder_sent_pk" PRIMARY KEY ("class_time_id", "user_id", "before", "starts_at")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "class_reminder_sent_user_idx" ON "class_reminder_sent" ("user_id");--> statement-breakpoint
-- The calendar invitation an email carried (the local outbox keeps it beside the text).
ALTER TABLE "email_outbox" ADD COLUMN IF NOT EXISTS "ical_event" jsonb;--> statement-breakpoint
-- The reminders of class times already scheduled (later ones are scheduled when a class time is added or moved).
INSERT INTO "job" ("kind", "payload", "run_at", "key")
SELECT 'courses.class-reminder',
       jsonb_build_object('classTimeId', ct.id::text, 'before', b.before, 'startsAt', to_char(ct.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
       ct.starts_at - b.ahead,
       'class-reminder:' || ct.id::text || ':' || b.before || ':' || (extract(epoch from ct.starts_at) * 1000)::bigint::text
FROM "class_time" ct
JOIN "course_session" s ON s.id = ct.session_id AND s.status = 'scheduled'
CROSS JOIN (VALUES ('24h', interval '24 hours'), ('1h', interval '1 hour')) AS b(before, ahead)
WHERE ct.starts_at - b.ahead > now()
ON CONFLICT ("key") WHERE "state" = 'queued' DO NOTHING;
