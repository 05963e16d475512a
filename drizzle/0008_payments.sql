CREATE TABLE "payment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"educator_id" uuid,
	"charge_id" text,
	"payment_intent_id" text,
	"invoice_id" text,
	"sequence" smallint DEFAULT 1 NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"receipt_url" text,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refund_range" CHECK ("payment"."refunded_cents" between 0 and "payment"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "payout_account" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"requirements_due" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plan" text DEFAULT 'standard' NOT NULL,
	"plan_subscription_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_account_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "purchase" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"course_id" uuid,
	"session_id" uuid,
	"educator_id" uuid,
	"plan_id" text,
	"enrolment_id" uuid,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"installments" smallint,
	"installment_cents" integer,
	"fee_percent" integer NOT NULL,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"subscription_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fulfilled_at" timestamp with time zone,
	CONSTRAINT "purchase_kind_valid" CHECK ("purchase"."kind" in ('course_payment', 'course_installments', 'plan')),
	CONSTRAINT "purchase_amount_positive" CHECK ("purchase"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_delivery" (
	"event_id" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_idempotency" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_object" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"data" jsonb NOT NULL,
	"parent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_event" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_educator_id_user_id_fk" FOREIGN KEY ("educator_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_account" ADD CONSTRAINT "payout_account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_session_id_course_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."course_session"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_educator_id_user_id_fk" FOREIGN KEY ("educator_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_enrolment_id_enrolment_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_charge_idx" ON "payment" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_invoice_idx" ON "payment" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payment_user_idx" ON "payment" USING btree ("user_id","paid_at");--> statement-breakpoint
CREATE INDEX "payment_educator_idx" ON "payment" USING btree ("educator_id","paid_at");--> statement-breakpoint
CREATE INDEX "payment_purchase_idx" ON "payment" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_checkout_session_idx" ON "purchase" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_subscription_idx" ON "purchase" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "purchase_user_idx" ON "purchase" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "purchase_educator_idx" ON "purchase" USING btree ("educator_id","created_at");--> statement-breakpoint
CREATE INDEX "purchase_enrolment_idx" ON "purchase" USING btree ("enrolment_id");--> statement-breakpoint
CREATE INDEX "sandbox_delivery_due_idx" ON "sandbox_delivery" USING btree ("next_attempt_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE INDEX "sandbox_object_type_idx" ON "sandbox_object" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_object_parent_idx" ON "sandbox_object" USING btree ("parent");