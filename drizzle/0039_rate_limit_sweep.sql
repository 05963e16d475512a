-- Every rate limit counts in rate_limit_hit (ADR 0056); windows that ended are swept by reset_at.
CREATE INDEX IF NOT EXISTS "rate_limit_hit_reset_at_idx" ON "rate_limit_hit" USING btree ("reset_at");
