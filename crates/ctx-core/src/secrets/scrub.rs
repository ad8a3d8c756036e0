//! Scrubbing the store: text stored under other rules is redacted again.
//!
//! Everything is redacted as it enters the store, by the detector in force
//! then. When the rules or the allow-lists change (a new ctx, an edited
//! `[secrets]`), what was stored before is redacted again, once, the next
//! time the workspace is opened for writing: people's and agents' text
//! (records, node fields, relation notes, artifact paths, cached values);
//! derived data that holds file text (map tags, assembled contexts) is
//! dropped and made again. File summaries and paths follow with the next
//! scan, whose rules fingerprint holds the detector's digest.

use rusqlite::types::Value;
use rusqlite::{Connection, TransactionBehavior, params_from_iter};

use super::Detector;
use crate::error::Result;
use crate::store::{kv_get, kv_set};

/// The `kv` key of the digest of the detector the store was last scrubbed with.
pub(crate) const DIGEST_KEY: &str = "secrets.digest";

/// The tables and columns that hold text people or agents wrote, the
/// columns that identify a row, and which rows (ctx's own facts in `kv`
/// are not text anybody wrote).
const TEXT_COLUMNS: &[(&str, &[&str], &[&str], &str)] = &[
    ("records", &["id"], &["title", "body", "tags", "refs", "meta", "session_id"], "1"),
    ("nodes", &["id"], &["title", "description", "content_md", "summary", "criteria", "meta"], "1"),
    ("links", &["from_id", "to_id", "kind"], &["note"], "1"),
    ("frame_artifacts", &["node_id", "path"], &["path"], "1"),
    ("files", &["id"], &["summary"], "1"),
    ("kv", &["key"], &["value"], "key LIKE 'memory.%'"),
];

/// Redact what the store holds with `detector`, unless it was done with
/// this detector already. Returns how many rows changed (`None`: nothing to do).
pub(crate) fn scrub_if_needed(conn: &mut Connection, detector: &Detector) -> Result<Option<usize>> {
    if kv_get(conn, DIGEST_KEY)?.as_deref() == Some(detector.digest()) {
        return Ok(None);
    }
    // Old values must not linger in freed pages either.
    conn.pragma_update(None, "secure_delete", true)?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut changed = 0;
    for (table, keys, columns, rows) in TEXT_COLUMNS {
        changed += scrub_table(&tx, detector, table, keys, columns, rows)?;
    }
    // What is derived from the files and the history is derived again, under the new rules.
    tx.execute("DELETE FROM file_tags", [])?;
    tx.execute_batch("DELETE FROM term_postings; DELETE FROM term_docs; DELETE FROM term_segments;")?;
    tx.execute("DELETE FROM file_outlines", [])?;
    tx.execute("DELETE FROM derived", [])?;
    tx.execute("DELETE FROM kv WHERE key = ?1", [crate::sources::OUTLINES_DIGEST])?;
    tx.execute("DELETE FROM context_cache", [])?;
    if changed > 0 {
        // Merge the full-text index, so the deleted terms leave its pages.
        tx.execute("INSERT INTO records_fts(records_fts) VALUES ('optimize')", [])?;
    }
    kv_set(&tx, DIGEST_KEY, detector.digest())?;
    tx.commit()?;
    conn.pragma_update(None, "secure_delete", false)?;
    if changed > 0 {
        // Old pages live on in the WAL until a checkpoint copies the new ones
        // over them; another reader may hold it back, which is no error.
        let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }
    Ok(Some(changed))
}

fn scrub_table(
    tx: &Connection,
    detector: &Detector,
    table: &str,
    keys: &[&str],
    columns: &[&str],
    rows: &str,
) -> Result<usize> {
    let select = format!("SELECT {}, {} FROM {table} WHERE {rows}", keys.join(", "), columns.join(", "));
    let assignments: Vec<String> =
        columns.iter().enumerate().map(|(i, c)| format!("{c} = ?{}", i + 1)).collect();
    let conditions: Vec<String> =
        keys.iter().enumerate().map(|(i, k)| format!("{k} = ?{}", columns.len() + i + 1)).collect();
    let update = format!("UPDATE {table} SET {} WHERE {}", assignments.join(", "), conditions.join(" AND "));
    let mut rows_to_write: Vec<Vec<Value>> = Vec::new();
    {
        let mut stmt = tx.prepare(&select)?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let mut values: Vec<Value> = Vec::with_capacity(columns.len());
            let mut any = false;
            for i in 0..columns.len() {
                let value: Value = row.get(keys.len() + i)?;
                values.push(match value {
                    Value::Text(text) => match detector.redact(&text) {
                        std::borrow::Cow::Owned(redacted) => {
                            any = true;
                            Value::Text(redacted)
                        }
                        std::borrow::Cow::Borrowed(_) => Value::Text(text),
                    },
                    other => other,
                });
            }
            if any {
                for k in 0..keys.len() {
                    values.push(row.get(k)?);
                }
                rows_to_write.push(values);
            }
        }
    }
    let mut stmt = tx.prepare(&update)?;
    for values in &rows_to_write {
        // A redacted key column (an artifact path) may meet an existing row: keep that one.
        match stmt.execute(params_from_iter(values)) {
            Err(rusqlite::Error::SqliteFailure(err, _))
                if err.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                let conditions: Vec<String> =
                    keys.iter().enumerate().map(|(i, k)| format!("{k} = ?{}", i + 1)).collect();
                tx.execute(
                    &format!("DELETE FROM {table} WHERE {}", conditions.join(" AND ")),
                    params_from_iter(&values[columns.len()..]),
                )?;
            }
            other => {
                other?;
            }
        }
    }
    Ok(rows_to_write.len())
}
