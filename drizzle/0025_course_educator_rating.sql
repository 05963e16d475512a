-- The course page sums the educator's rating over their published courses: with the two
-- columns INCLUDEd that is an index-only scan (a few index pages), not a visit of every
-- course row of the educator (~50 heap pages of the wide table at 100k courses).
CREATE INDEX "course_educator_rating_idx" ON "course" USING btree ("educator_id") INCLUDE ("rating_avg","rating_count") WHERE status = 'published';
