-- 0007: session records have no node; indexing their NULL node_id made
-- every ingested record pay for an index entry nothing reads. Queries by
-- node (`node_id = ?`) imply `node_id IS NOT NULL` and still use it.
DROP INDEX records_node;
CREATE INDEX records_node ON records(node_id, ts) WHERE node_id IS NOT NULL;
