-- Issue 23: the card's summary of a club keeps the text's own punctuation. Migration 0033 turned every
-- "-" and "!" into a space, so "science-fiction" read "science fiction" and "Welcome!" read "Welcome".
-- Now a "-" is dropped only as a Markdown mark (a list marker, a rule, a dash run beside a space or a
-- mark); one between two characters of text stays ("science-fiction", "2-3"); a "!" is dropped only
-- as an image's mark ("![alt](url)"). Everything else is as in 0033: the marks # * _ > ` ~ [ ] ( ) |
-- become spaces, spaces collapse, no space before . , ; : ! ?, empty lines dropped, every line but the
-- last ended by a full stop without punctuation at its end, joined by spaces, cut at 160 UTF-16 units.
CREATE OR REPLACE FUNCTION club_summary(description text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  with lines as (
    select l, i, max(i) over () as last from (
      select btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(line,
          '(^|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff#*_>`~[\]()!|.,;:?-])-+', '\1 ', 'g'),
          '-+(?=[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff#*_>`~[\]()!|.,;:?]|$)', ' ', 'g'),
          '!+(?=\[)', ' ', 'g'),
          '[]#*_>`~[()|]+', ' ', 'g'),
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
-- Every stored summary (and the card head made from it) computed again: an update recomputes a row's
-- generated columns. The search triggers see no change of the search words.
UPDATE club SET description = description;
