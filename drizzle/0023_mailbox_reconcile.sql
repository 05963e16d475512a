-- The mailbox's first migration (0017) was revised before it was ever released; this one
-- brings the recorded schema in line and changes nothing where 0017 already ran as revised.
CREATE INDEX IF NOT EXISTS "message_sender_time_idx" ON "message" USING btree ("sender_id","created_at");--> statement-breakpoint
ALTER TABLE "conversation" DROP COLUMN IF EXISTS "last_message_at";
