CREATE SCHEMA IF NOT EXISTS "stripe_sandbox";
--> statement-breakpoint
CREATE TABLE "stripe_sandbox"."delivery" (
	"event_id" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "stripe_sandbox"."idempotency_key" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_sandbox"."object" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"data" jsonb NOT NULL,
	"parent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "delivery_due_idx" ON "stripe_sandbox"."delivery" USING btree ("next_attempt_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE INDEX "object_type_idx" ON "stripe_sandbox"."object" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "object_parent_idx" ON "stripe_sandbox"."object" USING btree ("parent");