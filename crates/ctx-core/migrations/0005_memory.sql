-- 0005: session memory. Session turns (queries, responses, tool calls and
-- outputs, notes) are records like decisions; `dedup_key` makes ingest
-- idempotent: a turn read again from the same transcript is the same key,
-- and is not added twice.

ALTER TABLE records ADD COLUMN dedup_key TEXT;
CREATE UNIQUE INDEX records_dedup ON records(dedup_key) WHERE dedup_key IS NOT NULL;
CREATE INDEX records_pool ON records(pool, ts);
