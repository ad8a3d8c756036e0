//! The L1 pack: a text block an agent harness injects every turn, between
//! the contract's delimiters, its five sections in the contract's order:
//!
//! 1. `### PINS` — what was pinned (`ctx pin add`), newest first;
//! 2. `### SUMMARY` — the latest session's summary (a record tagged `summary`: see `summary()`);
//! 3. `### MANIFEST` — what memory holds: records by pool and type, sessions,
//!    the current frame, the last search;
//! 4. `### RETRIEVAL_INDEX` — the rows of the last `ctx search`;
//! 5. `### WORKSET_RECENT_TURNS` — the latest prompts and answers of the main
//!    thread, one line each, oldest first.
//!
//! The pack never exceeds its token threshold when it can be helped: items
//! go from the least needed end (the last search, the oldest turns, the
//! manifest's details, the summary's tail, the oldest pins), a section that
//! lost items says `(trimmed)`. With nothing but pins and the summary left
//! the pack is `minimal`; with nothing at all, `emergency` (delimiters,
//! headings and placeholders only, over the threshold only when even that is).

use rusqlite::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::search::summarize;
use crate::error::Result;
use crate::store::{kv_get, kv_set};
use crate::tokens::Tokenizer;

/// The contract's default delimiters.
pub const DEFAULT_START: &str = "<<<CONTEXTFS:BEGIN>>>";
pub const DEFAULT_END: &str = "<<<CONTEXTFS:END>>>";

/// The sections, in the contract's order.
pub const SECTIONS: [&str; 5] = ["PINS", "SUMMARY", "MANIFEST", "RETRIEVAL_INDEX", "WORKSET_RECENT_TURNS"];

/// What a section shows when it lost items to the threshold.
const TRIMMED: &str = "(trimmed)";

/// Turns the workset shows at most.
const RECENT_TURNS: usize = 12;

/// The key in `kv` of the last search's rows.
pub(crate) const LAST_SEARCH: &str = "memory.last_search";

/// A pack. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Pack {
    /// `"L1"`.
    pub layer: &'static str,
    /// The block to inject, delimiters included.
    pub text: String,
    pub tokens: usize,
    pub threshold: usize,
    /// `full`, `trimmed`, `minimal` or `emergency`.
    pub mode: &'static str,
    /// Each section: what it holds and what it lost.
    pub sections: Vec<PackSection>,
    /// Where the pack was written for audit, relative to the root.
    pub stored: Option<String>,
}

/// Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PackSection {
    pub name: &'static str,
    pub items: usize,
    pub trimmed: usize,
}

/// The last search's rows, as `ctx search` leaves them for the pack.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct LastSearch {
    pub query: String,
    /// `id  type  summary`, best first.
    pub rows: Vec<String>,
}

/// Remember the rows of a search for the next pack (a write that gives up
/// quickly: a search must not wait on it, nor fail for it).
pub(crate) fn remember_search(conn: &Connection, last: &LastSearch) {
    let Ok(json) = serde_json::to_string(last) else { return };
    let _ = crate::store::briefly(conn, || Ok(kv_set(conn, LAST_SEARCH, &json)?));
}

/// Build the pack within `threshold` tokens.
pub(crate) fn pack(
    conn: &Connection,
    tok: &dyn Tokenizer,
    threshold: usize,
    delimiters: (&str, &str),
    current_frame: Option<String>,
) -> Result<Pack> {
    let mut sections: [Vec<String>; 5] = [
        pins(conn)?,
        summary(conn)?,
        manifest(conn, current_frame)?,
        retrieval_index(conn)?,
        recent_turns(conn)?,
    ];
    let sizes = sections.each_ref().map(Vec::len);
    let render = |sections: &[Vec<String>; 5]| -> String {
        let mut text = format!("{}\n", delimiters.0);
        for (i, name) in SECTIONS.iter().enumerate() {
            text.push_str(&format!("### {name}\n"));
            if sections[i].is_empty() {
                text.push_str(if sizes[i] > 0 { TRIMMED } else { "(none)" });
                text.push('\n');
            } else {
                for item in &sections[i] {
                    text.push_str(item);
                    text.push('\n');
                }
                if sections[i].len() < sizes[i] {
                    text.push_str(TRIMMED);
                    text.push('\n');
                }
            }
        }
        text.push_str(delimiters.1);
        text.push('\n');
        text
    };
    // What goes first when over the threshold: (section, from the end?).
    // The last search and the oldest turns first, the pins last.
    const ORDER: [(usize, bool); 5] = [(3, true), (4, false), (2, true), (1, true), (0, true)];
    let mut text = render(&sections);
    let mut tokens = tok.count(&text);
    'trim: for (section, from_end) in ORDER {
        while tokens > threshold {
            if sections[section].is_empty() {
                continue 'trim;
            }
            if from_end {
                sections[section].pop();
            } else {
                sections[section].remove(0);
            }
            text = render(&sections);
            tokens = tok.count(&text);
        }
    }
    let kept = sections.each_ref().map(Vec::len);
    let trimmed_any = kept.iter().zip(&sizes).any(|(k, s)| k < s);
    let mode = if !trimmed_any {
        "full"
    } else if kept.iter().all(|&k| k == 0) {
        "emergency"
    } else if kept[2..].iter().all(|&k| k == 0) {
        "minimal"
    } else {
        "trimmed"
    };
    let sections = SECTIONS
        .iter()
        .enumerate()
        .map(|(i, name)| PackSection { name, items: kept[i], trimmed: sizes[i] - kept[i] })
        .collect();
    Ok(Pack { layer: "L1", text, tokens, threshold, mode, sections, stored: None })
}

fn lines(
    conn: &Connection,
    sql: &str,
    line: fn(&rusqlite::Row<'_>) -> rusqlite::Result<String>,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([], line)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// `- H-…: text`, newest first.
fn pins(conn: &Connection) -> Result<Vec<String>> {
    lines(conn, "SELECT uid, body FROM records WHERE type = 'pin' ORDER BY ts DESC, id DESC", |row| {
        Ok(format!("- {}: {}", row.get::<_, String>(0)?, summarize(&row.get::<_, String>(1)?)))
    })
}

/// The summary's lines (at most 20): the latest session's (its newest
/// summary record: a compaction's, or a note; else a transcript's summary
/// line whose leaf message is in that session), else the newest dated
/// summary. A summary line of another session is never taken for this one's.
/// Whether a record is a summary. Migration 0011 indexes the records this
/// condition holds for: keep the two word for word the same.
const SUMMARY: &str = "instr(' ' || tags || ' ', ' summary ') > 0";

fn summary(conn: &Connection) -> Result<Vec<String>> {
    let latest: Option<String> = conn
        .query_row(
            "SELECT session_id FROM records WHERE pool = 'hot' AND ts <> 'n/a' AND session_id IS NOT NULL
             ORDER BY ts DESC, id DESC LIMIT 1",
            [],
            |row| row.get(0),
        )
        .optional()?;
    // The body the query (with `SUMMARY` in its `{SUMMARY}`) finds first, if any.
    let first = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Option<String>> {
        Ok(conn.query_row(&sql.replace("{SUMMARY}", SUMMARY), params, |row| row.get(0)).optional()?)
    };
    let mut text: Option<String> = None;
    if let Some(session) = &latest {
        text = first(
            "SELECT body FROM records WHERE session_id = ?1 AND {SUMMARY}
             ORDER BY (ts = 'n/a'), ts DESC, id DESC LIMIT 1",
            &[session],
        )?;
        if text.is_none() {
            // A Claude Code message's key is `cc:<session>:<uuid>:<block>` (see ingest/claude.rs).
            text = first(
                "SELECT s.body FROM records s WHERE s.session_id IS NULL AND {SUMMARY}
                   AND json_extract(s.meta, '$.leaf_uuid') IS NOT NULL
                   AND EXISTS (SELECT 1 FROM records m
                     WHERE m.dedup_key >= 'cc:' || ?1 || ':' || json_extract(s.meta, '$.leaf_uuid') || ':'
                       AND m.dedup_key < 'cc:' || ?1 || ':' || json_extract(s.meta, '$.leaf_uuid') || ';')
                 ORDER BY s.id DESC LIMIT 1",
                &[session],
            )?;
        }
    }
    if text.is_none() {
        text = first(
            "SELECT body FROM records WHERE pool = 'hot' AND {SUMMARY} AND ts <> 'n/a'
             ORDER BY ts DESC, id DESC LIMIT 1",
            &[],
        )?;
    }
    Ok(text
        .map(|t| t.lines().map(str::trim).filter(|l| !l.is_empty()).take(20).map(summarize).collect())
        .unwrap_or_default())
}

fn manifest(conn: &Connection, current_frame: Option<String>) -> Result<Vec<String>> {
    let mut items = Vec::new();
    let counts = lines(
        conn,
        "SELECT pool || ' ' || sum(n) || ' (' || group_concat(type || ' ' || n, ', ') || ')' FROM
           (SELECT pool, type, count(*) AS n FROM records WHERE type NOT IN ('decision', 'attempt', 'pin')
            GROUP BY pool, type ORDER BY n DESC)
         GROUP BY pool ORDER BY pool DESC",
        |row| row.get(0),
    )?;
    if !counts.is_empty() {
        items.push(format!("- records: {}", counts.join("; ")));
    }
    let sessions: (i64, Option<String>) = conn.query_row(
        "SELECT count(DISTINCT session_id), max(CASE WHEN ts <> 'n/a' THEN ts END) FROM records
         WHERE session_id IS NOT NULL",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    if sessions.0 > 0 {
        items.push(format!(
            "- sessions: {} (latest turn {})",
            sessions.0,
            sessions.1.unwrap_or_else(|| "n/a".into())
        ));
    }
    if let Some(frame) = current_frame {
        items.push(format!("- current frame: {frame}"));
    }
    if let Some(last) = last_search(conn)? {
        items.push(format!("- last search: {:?} ({} rows)", summarize(&last.query), last.rows.len()));
    }
    Ok(items)
}

fn last_search(conn: &Connection) -> Result<Option<LastSearch>> {
    Ok(kv_get(conn, LAST_SEARCH)?.and_then(|json| serde_json::from_str(&json).ok()))
}

fn retrieval_index(conn: &Connection) -> Result<Vec<String>> {
    Ok(last_search(conn)?
        .map(|last| last.rows.iter().map(|row| format!("- {row}")).collect())
        .unwrap_or_default())
}

/// The latest turns of the main thread, oldest first: what people asked
/// and what they were answered (not a subagent's turns, nor what the harness
/// injected: those are other types, see ingest).
fn recent_turns(conn: &Connection) -> Result<Vec<String>> {
    let sql = format!(
        "SELECT uid, coalesce(role, 'unknown'), body FROM records
         WHERE pool = 'hot' AND type IN ('query', 'response') AND ts <> 'n/a'
           AND instr(' ' || tags || ' ', ' subagent ') = 0
         ORDER BY ts DESC, id DESC LIMIT {RECENT_TURNS}"
    );
    let mut turns = lines(conn, &sql, |row| {
        Ok(format!(
            "- {} {}: {}",
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            summarize(&row.get::<_, String>(2)?)
        ))
    })?;
    turns.reverse();
    Ok(turns)
}

/// A delimiter as configured, made safe: one line, no control characters,
/// at most 64 characters; the default when nothing is left.
pub(crate) fn sanitize_delimiter(text: &str, default: &'static str) -> String {
    let clean: String = text.chars().filter(|c| !c.is_control()).take(64).collect();
    let clean = clean.trim();
    if clean.is_empty() { default.to_string() } else { clean.to_string() }
}

#[cfg(test)]
mod tests {
    use super::SUMMARY;
    use crate::store::Store;

    /// The summary lookups run at every session start: they must use the
    /// partial indexes of migration 0011, not read every record's tags.
    #[test]
    fn summary_lookups_use_the_summary_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("ctx.db")).unwrap();
        for (filter, index) in [
            ("session_id = 'S1'", "records_summary_session"),
            ("session_id IS NULL", "records_summary_session"),
            ("pool = 'hot' AND ts <> 'n/a'", "records_summary_pool"),
        ] {
            let sql =
                format!("EXPLAIN QUERY PLAN SELECT body FROM records WHERE {filter} AND {SUMMARY} LIMIT 1");
            let plan: Vec<String> = store
                .conn
                .prepare(&sql)
                .unwrap()
                .query_map([], |row| row.get::<_, String>(3))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert!(plan.iter().any(|step| step.contains(index)), "{filter}: {plan:?}");
        }
    }
}
