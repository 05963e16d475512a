-- Promo codes (issue 26.2, ADR 0068): an educator's for their course, or the platform's; uses
-- reserved at checkout, confirmed on payment, released when the checkout expires.
CREATE TABLE IF NOT EXISTS "promo_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"educator_id" uuid,
	"course_id" uuid,
	"session_ids" uuid[],
	"percent_off" smallint,
	"amount_off_cents" integer,
	"currency" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"provider_coupon_id" text,
	"provider_promotion_code_id" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_code_kind" CHECK (("promo_code"."percent_off" is null) <> ("promo_code"."amount_off_cents" is null)),
	CONSTRAINT "promo_code_percent_range" CHECK ("promo_code"."percent_off" is null or "promo_code"."percent_off" between 1 and 90),
	CONSTRAINT "promo_code_amount_positive" CHECK ("promo_code"."amount_off_cents" is null or ("promo_code"."amount_off_cents" > 0 and "promo_code"."currency" is not null)),
	CONSTRAINT "promo_code_uses_range" CHECK ("promo_code"."uses" between 0 and "promo_code"."max_uses"),
	CONSTRAINT "promo_code_dates" CHECK ("promo_code"."ends_at" > "promo_code"."starts_at"),
	CONSTRAINT "promo_code_owner" CHECK ("promo_code"."course_id" is null or "promo_code"."educator_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "promo_code" ADD CONSTRAINT "promo_code_educator_id_user_id_fk" FOREIGN KEY ("educator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code" ADD CONSTRAINT "promo_code_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code" ADD CONSTRAINT "promo_code_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_code_code_idx" ON "promo_code" USING btree ("code");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "promo_code_educator_idx" ON "promo_code" USING btree ("educator_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "promo_code_course_idx" ON "promo_code" USING btree ("course_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "promo_redemption" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"promo_code_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"purchase_id" uuid NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"discount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_redemption_status" CHECK ("promo_redemption"."status" in ('reserved', 'confirmed', 'released'))
);
--> statement-breakpoint
ALTER TABLE "promo_redemption" ADD CONSTRAINT "promo_redemption_promo_code_id_promo_code_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemption" ADD CONSTRAINT "promo_redemption_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemption" ADD CONSTRAINT "promo_redemption_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_redemption_purchase_idx" ON "promo_redemption" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_redemption_once_idx" ON "promo_redemption" USING btree ("promo_code_id","user_id") WHERE "promo_redemption"."status" <> 'released';--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN IF NOT EXISTS "promo_code_id" uuid;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN IF NOT EXISTS "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_promo_code_id_promo_code_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_code"("id") ON DELETE set null ON UPDATE no action;
