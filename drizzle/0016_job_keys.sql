ALTER TABLE "job" ADD COLUMN "key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "job_queued_key_uq" ON "job" USING btree ("key") WHERE state = 'queued';