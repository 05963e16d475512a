-- Every realtime event a user receives carries a per-user sequence (docs/decisions/0056-no-push-lost.md):
-- the last one given to each user, and a short log of recent events a reconnecting socket is replayed from.
CREATE TABLE "realtime_sequence" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
) WITH (fillfactor = 50);
--> statement-breakpoint
CREATE TABLE "realtime_event" (
	"user_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"event" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realtime_event_user_id_seq_pk" PRIMARY KEY("user_id","seq")
);
