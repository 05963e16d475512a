CREATE SEQUENCE "public"."club_rsvp_order_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "club" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"city" text,
	"online" boolean DEFAULT false NOT NULL,
	"cover_image" text,
	"visibility" text DEFAULT 'public' NOT NULL,
	"join_question" text,
	"rules" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"member_count" integer DEFAULT 0 NOT NULL,
	"next_event_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(city, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_visibility_valid" CHECK ("club"."visibility" in ('public', 'approval')),
	CONSTRAINT "club_member_count" CHECK ("club"."member_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "club_event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"club_id" uuid NOT NULL,
	"series_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"online_url" text,
	"address" text,
	"capacity" integer,
	"rsvp_deadline" timestamp with time zone,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"going_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_event_times" CHECK ("club_event"."ends_at" > "club_event"."starts_at"),
	CONSTRAINT "club_event_status_valid" CHECK ("club_event"."status" in ('scheduled', 'cancelled')),
	CONSTRAINT "club_event_capacity" CHECK ("club_event"."capacity" is null or ("club_event"."capacity" >= 1 and "club_event"."going_count" <= "club_event"."capacity")),
	CONSTRAINT "club_event_going" CHECK ("club_event"."going_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "club_membership" (
	"club_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"state" text NOT NULL,
	"join_answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_membership_club_id_user_id_pk" PRIMARY KEY("club_id","user_id"),
	CONSTRAINT "club_membership_role_valid" CHECK ("club_membership"."role" in ('owner', 'organiser', 'member')),
	CONSTRAINT "club_membership_state_valid" CHECK ("club_membership"."state" in ('active', 'pending', 'removed', 'banned'))
);
--> statement-breakpoint
CREATE TABLE "club_rsvp" (
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queue_order" bigint,
	"reminded" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "club_rsvp_event_id_user_id_pk" PRIMARY KEY("event_id","user_id"),
	CONSTRAINT "club_rsvp_status_valid" CHECK ("club_rsvp"."status" in ('going', 'waitlisted', 'not_going'))
);
--> statement-breakpoint
CREATE TABLE "club_search_word" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "club" ADD CONSTRAINT "club_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_event" ADD CONSTRAINT "club_event_club_id_club_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."club"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_event" ADD CONSTRAINT "club_event_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_membership" ADD CONSTRAINT "club_membership_club_id_club_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."club"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_membership" ADD CONSTRAINT "club_membership_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_rsvp" ADD CONSTRAINT "club_rsvp_event_id_club_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."club_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_rsvp" ADD CONSTRAINT "club_rsvp_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "club_search_idx" ON "club" USING gin ("search");--> statement-breakpoint
CREATE INDEX "club_members_idx" ON "club" USING btree ("member_count" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "club_next_event_idx" ON "club" USING btree ("next_event_at","id") WHERE visibility = 'public' and next_event_at is not null;--> statement-breakpoint
CREATE INDEX "club_city_idx" ON "club" USING btree (lower(city),"member_count" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "club_category_idx" ON "club" USING btree ("category","member_count" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "club_event_club_idx" ON "club_event" USING btree ("club_id","starts_at");--> statement-breakpoint
CREATE INDEX "club_event_upcoming_idx" ON "club_event" USING btree ("starts_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE UNIQUE INDEX "club_one_owner_uq" ON "club_membership" USING btree ("club_id") WHERE role = 'owner';--> statement-breakpoint
CREATE INDEX "club_membership_user_idx" ON "club_membership" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "club_membership_club_state_idx" ON "club_membership" USING btree ("club_id","state","role");--> statement-breakpoint
CREATE INDEX "club_rsvp_event_idx" ON "club_rsvp" USING btree ("event_id","status","queue_order");--> statement-breakpoint
CREATE INDEX "club_rsvp_user_idx" ON "club_rsvp" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "club_search_word_trgm_idx" ON "club_search_word" USING gist ("word" gist_trgm_ops);--> statement-breakpoint
-- The words of club names and cities, for typo correction in club search
-- (clubs/search-club.ts); only added, as course_search_words.
CREATE OR REPLACE FUNCTION club_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO club_search_word (word)
  SELECT DISTINCT w FROM regexp_split_to_table(lower(NEW.name || ' ' || coalesce(NEW.city, '')), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3
  ORDER BY w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER club_search_words AFTER INSERT OR UPDATE OF name, city ON club
  FOR EACH ROW EXECUTE FUNCTION club_search_words();
