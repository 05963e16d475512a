-- A club card (ClubCard, shared/clubs-schemas.ts) as JSON text without its closing brace and its
-- last two keys, memberCount and nextEventAt, which search appends (docs/decisions/0026-clubs-at-scale.md,
-- "Cards"): stored on the club so that a search builds no JSON object per card. IMMUTABLE: to_json of
-- text and of a uuid's text depends on no setting (it is STABLE only because of other types).
CREATE OR REPLACE FUNCTION club_card_head(id uuid, name text, summary text, category text, city text, online boolean,
  cover_image text, visibility text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  select '{"id":' || to_json(id::text)::text || ',"name":' || to_json(name)::text || ',"summary":' || to_json(summary)::text
    || ',"category":' || to_json(category)::text || ',"city":' || coalesce(to_json(city)::text, 'null')
    || ',"online":' || case when online then 'true' else 'false' end || ',"coverImage":' || coalesce(to_json(cover_image)::text, 'null')
    || ',"visibility":' || to_json(visibility)::text
$fn$;
--> statement-breakpoint
ALTER TABLE "club" ADD COLUMN "card_head" text GENERATED ALWAYS AS (club_card_head(id, name, club_summary(description), category, city, online, cover_image, visibility)) STORED NOT NULL;