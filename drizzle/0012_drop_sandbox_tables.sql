-- The payments sandbox moved to packages/stripe-sandbox, which keeps its state in its own
-- schema (stripe_sandbox.*, created by the package when it is mounted). Its old tables
-- leave the product's schema: production databases had them empty; a development
-- database loses its local sandbox state (see docs/decisions/0009).
DROP TABLE IF EXISTS "sandbox_delivery" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "sandbox_idempotency" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "sandbox_object" CASCADE;
