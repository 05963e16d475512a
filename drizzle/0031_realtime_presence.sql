CREATE TABLE "realtime_presence" (
	"user_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"sockets" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realtime_presence_user_id_instance_id_pk" PRIMARY KEY("user_id","instance_id")
);
--> statement-breakpoint
CREATE INDEX "realtime_presence_instance_idx" ON "realtime_presence" USING btree ("instance_id");