-- Family accounts (ADR 0074): a learner profile removed while it has past classes is hidden, not deleted.
ALTER TABLE "learner_profile" ADD COLUMN "removed_at" timestamp with time zone;
