-- Uploaded files kept in PostgreSQL (issue 24 item 1; docs/decisions/0056-file-storage-backends.md).
-- The storage domain's table: written once per key, read by the /uploads/ route on any instance.
CREATE TABLE "stored_file" (
	"key" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The bytes are already compressed images: no TOAST compression attempt on every write.
ALTER TABLE "stored_file" ALTER COLUMN "content" SET STORAGE EXTERNAL;
