-- Family accounts in the learning loop (ADR 0074, 0069): a mark and a certificate are the seat's
-- learner's, the account and its learner profile (null: the account holder). Existing rows are
-- the holders' own and stay valid as they are. The new unique keys are made before the old ones go.
ALTER TABLE "attendance_mark" ADD COLUMN "learner_profile_id" uuid;--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "learner_profile_id" uuid;--> statement-breakpoint
ALTER TABLE "attendance_mark" ADD CONSTRAINT "attendance_mark_learner_profile_id_learner_profile_id_fk" FOREIGN KEY ("learner_profile_id") REFERENCES "public"."learner_profile"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate" ADD CONSTRAINT "certificate_learner_profile_id_learner_profile_id_fk" FOREIGN KEY ("learner_profile_id") REFERENCES "public"."learner_profile"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_mark_one_per_learner" ON "attendance_mark" USING btree ("class_time_id","learner_id",coalesce("learner_profile_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
ALTER TABLE "attendance_mark" DROP CONSTRAINT "attendance_mark_class_time_id_learner_id_pk";--> statement-breakpoint
ALTER INDEX "certificate_one_per_learner" RENAME TO "certificate_one_per_learner_old";--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_one_per_learner" ON "certificate" USING btree ("session_id","learner_id",coalesce("learner_profile_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
DROP INDEX "certificate_one_per_learner_old";
