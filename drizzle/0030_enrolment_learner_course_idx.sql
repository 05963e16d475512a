DROP INDEX "enrolment_learner_idx";--> statement-breakpoint
CREATE INDEX "enrolment_learner_course_idx" ON "enrolment" USING btree ("learner_id","course_id");