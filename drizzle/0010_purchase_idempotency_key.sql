ALTER TABLE "purchase" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_idempotency_idx" ON "purchase" USING btree ("user_id","idempotency_key");