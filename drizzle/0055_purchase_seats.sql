-- Family accounts, the money side (ADR 0074): one purchase for several learners, a row per seat.
CREATE TABLE "purchase_seat" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"learner_profile_id" uuid,
	"enrolment_id" uuid,
	"share_cents" integer NOT NULL,
	"first_cents" integer NOT NULL,
	"later_cents" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"dropped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_seat_status" CHECK ("purchase_seat"."status" in ('open', 'seated', 'refused', 'dropped')),
	CONSTRAINT "purchase_seat_amounts" CHECK ("purchase_seat"."share_cents" >= 0 and "purchase_seat"."first_cents" >= 0 and "purchase_seat"."later_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchase_seat" ADD CONSTRAINT "purchase_seat_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "purchase_seat" ADD CONSTRAINT "purchase_seat_learner_profile_id_learner_profile_id_fk" FOREIGN KEY ("learner_profile_id") REFERENCES "public"."learner_profile"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "purchase_seat" ADD CONSTRAINT "purchase_seat_enrolment_id_enrolment_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolment"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_seat_position_idx" ON "purchase_seat" USING btree ("purchase_id","position");
--> statement-breakpoint
CREATE INDEX "purchase_seat_enrolment_idx" ON "purchase_seat" USING btree ("enrolment_id") WHERE "purchase_seat"."enrolment_id" is not null;
