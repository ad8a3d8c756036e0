-- The pack's SUMMARY looks for the latest session's record tagged `summary`
-- at every session start (memory/pack.rs, `summary()`). Without an index that
-- is a read of every record of the session, or of the hot pool, to test its
-- tags (on 25 MB of transcript, 35 ms of SessionStart's 50). These partial
-- indexes hold the few summary records only. The condition must stay
-- word for word the `SUMMARY` condition of pack.rs, or SQLite will not use them.
CREATE INDEX records_summary_session ON records(session_id, ts)
    WHERE instr(' ' || tags || ' ', ' summary ') > 0;
CREATE INDEX records_summary_pool ON records(pool, ts)
    WHERE instr(' ' || tags || ' ', ' summary ') > 0;
