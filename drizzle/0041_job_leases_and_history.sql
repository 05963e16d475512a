-- Issue 24 item 4: jobs that survive a crash (docs/decisions/0056-job-leases-and-history.md).
-- A running job is held by a lease its worker renews (a heartbeat); `locked_by` names the worker,
-- so only the holder renews or finishes it. Finished jobs move to job_history (kept JOBS_KEEP_DAYS
-- for the admin page, no payload); a job that failed every attempt stays in job as 'failed' with
-- the time it gave up, pruned after the same time.
ALTER TABLE "job" ADD COLUMN "locked_by" text;
--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "finished_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "started_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "job" SET "finished_at" = now() WHERE "state" = 'failed';
--> statement-breakpoint
CREATE TABLE "job_history" (
  "id" uuid PRIMARY KEY NOT NULL,
  "kind" text NOT NULL,
  "key" text,
  "outcome" text NOT NULL,
  "attempts" integer NOT NULL,
  "ran_by" text,
  "last_error" text,
  "created_at" timestamp with time zone NOT NULL,
  "started_at" timestamp with time zone,
  "finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_history_finished_idx" ON "job_history" USING btree ("finished_at");
--> statement-breakpoint
CREATE INDEX "job_failed_idx" ON "job" USING btree ("finished_at") WHERE "state" = 'failed';
