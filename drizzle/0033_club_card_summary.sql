-- The card's summary of a club's Markdown description, as the Node summarize did (clubs/search-clubs.ts
-- until migration 0033): each line without the marks # * _ > ` ~ [ ] ( ) ! | -, its spaces collapsed,
-- no space before . , ; : ! ?, empty lines dropped, every line but the last ended by a full stop when
-- it has no punctuation at its end, joined by spaces, cut at 160 UTF-16 code units (an astral character
-- counts 2, as in JavaScript; one that would be cut in half is left out). "Space" is JavaScript's \s.
CREATE OR REPLACE FUNCTION club_summary(description text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  with lines as (
    select l, i, max(i) over () as last from (
      select btrim(regexp_replace(regexp_replace(regexp_replace(line,
          '[]#*_>`~[()!|-]+', ' ', 'g'),
          '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'),
          '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+([.,;:!?])', '\1', 'g'), ' ') as l, i
      from regexp_split_to_table(description, E'\n') with ordinality s(line, i)) x
    where l <> ''
  ), joined as (
    select coalesce(string_agg(case when i < last and l !~ '[.,;:!?]$' then l || '.' else l end, ' ' order by i), '') as s
    from lines
  )
  select case when left(s, 160) !~ '[\U00010000-\U0010ffff]' then left(s, 160) else (
    select string_agg(ch, '' order by k) from (
      select ch, k, sum(case when ascii(ch) > 65535 then 2 else 1 end) over (order by k) as u
      from regexp_split_to_table(left(s, 160), '') with ordinality c(ch, k)) y
    where u <= 160) end
  from joined
$fn$;
--> statement-breakpoint
-- Computed for every existing club when the column is added (the table is rewritten once: ~100k rows in seconds).
ALTER TABLE "club" ADD COLUMN "summary" text GENERATED ALWAYS AS (club_summary(description)) STORED NOT NULL;