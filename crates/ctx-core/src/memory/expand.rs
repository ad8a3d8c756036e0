//! Progressive retrieval after a search: `timeline` (L0 rows around an
//! anchor) and `get` (L2: one record, whose JSON stays within a budget of
//! `head` characters and is valid JSON for every budget, as the contract says).

use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Value, json};

use super::search::L0Row;
use super::{Record, get};
use crate::error::{Error, Result};
use crate::limits::{self, MAX_TIMELINE_SIDE};

/// `ctx timeline --json`: the contract's response. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Timeline {
    /// `"L0"`.
    pub layer: &'static str,
    pub anchor: String,
    pub before: usize,
    pub after: usize,
    /// The anchor's pool.
    pub source: String,
    /// `"all"` or the session the slice is from.
    pub session: String,
    /// Whose turns the slice shows: `main` (the main thread's), `subagents`
    /// (every subagent's), `agent:<id>` (one subagent's) or `all`.
    pub thread: String,
    pub results: Vec<L0Row>,
}

/// Which session a timeline reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TimelineSession {
    /// The anchor's session (all records when it has none).
    #[default]
    Anchor,
    All,
    Id(String),
}

/// Which thread of a session a timeline reads: a subagent's turns (records
/// tagged `subagent`) are kept apart from the main thread's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TimelineThread {
    /// The anchor's: the main thread, or the anchor's subagent (every
    /// subagent's turns when the transcript does not name its agents).
    #[default]
    Anchor,
    Main,
    Subagents,
    All,
}

impl TimelineThread {
    pub fn parse(text: &str) -> Option<TimelineThread> {
        match text.trim().to_ascii_lowercase().as_str() {
            "anchor" => Some(TimelineThread::Anchor),
            "main" => Some(TimelineThread::Main),
            "subagents" => Some(TimelineThread::Subagents),
            "all" => Some(TimelineThread::All),
            _ => None,
        }
    }
}

/// Whether a record is a subagent's (SQL over `records`).
pub(crate) const IS_SUBAGENT: &str = "instr(' ' || tags || ' ', ' subagent ') > 0";

/// `before` rows before the anchor `id` and `after` after it, in time order
/// (ties by insertion), in `session` and `thread`.
pub(crate) fn timeline(
    conn: &Connection,
    id: &str,
    before: usize,
    after: usize,
    session: &TimelineSession,
    thread: &TimelineThread,
) -> Result<Timeline> {
    limits::at_most("--before", before, MAX_TIMELINE_SIDE)?;
    limits::at_most("--after", after, MAX_TIMELINE_SIDE)?;
    let (anchor, source) = get(conn, id)?;
    let session = match session {
        TimelineSession::Anchor => anchor.session_id.clone(),
        TimelineSession::All => None,
        TimelineSession::Id(id) => Some(id.clone()),
    };
    let row_id: i64 =
        conn.query_row("SELECT id FROM records WHERE uid = ?1", [&anchor.id], |row| row.get(0))?;
    let in_subagent = anchor.tags.iter().any(|t| t == "subagent");
    let agent = anchor.meta.get("agent_id").and_then(Value::as_str);
    let (thread, agent) = match thread {
        TimelineThread::Anchor if in_subagent && agent.is_some() => ("agent", agent),
        TimelineThread::Anchor if in_subagent => ("subagents", None),
        TimelineThread::Anchor | TimelineThread::Main => ("main", None),
        TimelineThread::Subagents => ("subagents", None),
        TimelineThread::All => ("all", None),
    };
    let side = |sql: &str, n: usize| -> Result<Vec<L0Row>> {
        let sql = sql.replace(
            "?THREAD",
            &format!(
                "(?5 = 'all' OR (?5 = 'main' AND NOT {IS_SUBAGENT}) OR (?5 = 'subagents' AND {IS_SUBAGENT})
                  OR (?5 = 'agent' AND json_extract(meta, '$.agent_id') = ?6))"
            ),
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(
            rusqlite::params![
                anchor.ts,
                row_id,
                session,
                i64::try_from(n).unwrap_or(i64::MAX),
                thread,
                agent
            ],
            |row| {
                let (title, body): (String, String) = (row.get(3)?, row.get(4)?);
                Ok(L0Row::plain(
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    &super::record_text(&title, &body),
                    row.get(5)?,
                ))
            },
        )?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    };
    let mut earlier = side(
        "SELECT uid, ts, type, title, body, pool FROM records
         WHERE (ts < ?1 OR (ts = ?1 AND id < ?2)) AND (?3 IS NULL OR session_id = ?3) AND ?THREAD
         ORDER BY ts DESC, id DESC LIMIT ?4",
        before,
    )?;
    earlier.reverse();
    let later = side(
        "SELECT uid, ts, type, title, body, pool FROM records
         WHERE (ts > ?1 OR (ts = ?1 AND id > ?2)) AND (?3 IS NULL OR session_id = ?3) AND ?THREAD
         ORDER BY ts, id LIMIT ?4",
        after,
    )?;
    let anchor_row = L0Row::plain(
        anchor.id.clone(),
        anchor.ts.clone(),
        anchor.record_type.clone(),
        &anchor.text,
        source.clone(),
    );
    let mut results = earlier;
    results.push(anchor_row);
    results.extend(later);
    Ok(Timeline {
        layer: "L0",
        anchor: anchor.id,
        before,
        after,
        source,
        session: session.unwrap_or_else(|| "all".into()),
        thread: match agent {
            Some(agent) => format!("agent:{agent}"),
            None => thread.to_string(),
        },
        results,
    })
}

/// `ctx get --json`: the record `id` as compact JSON of at most `head`
/// characters (no limit when `None`). The text is cut first, then refs and
/// tags; when not even the envelope fits, the contract's tiny fallback
/// `{id, truncated, effective_head, note: "budget_too_small"}` (its id cut
/// to fit). A `head` below [`min_head`], which not even the tiny fallback
/// fits, is an error: the answer is never longer than `head`.
pub(crate) fn get_json(conn: &Connection, id: &str, head: Option<usize>) -> Result<String> {
    if let Some(head) = head.filter(|&head| head < min_head()) {
        return Err(Error::InvalidInput(format!(
            "a head of {head} characters is too small: the shortest answer (the contract's \
             budget_too_small note) takes {}; ask for at least {}",
            min_head(),
            min_head()
        )));
    }
    let (record, source) = get(conn, id)?;
    Ok(L2::new(&record, &source).within(head))
}

/// The smallest `head` [`get_json`] can answer within: the tiny fallback's
/// length with an empty id.
pub(crate) fn min_head() -> usize {
    // Its length grows with the digits of `head` itself; the first that fits.
    (1..).find(|&head| tiny("", head).chars().count() <= head).unwrap_or(usize::MAX)
}

/// The head a search row hints for `get`: the smallest whose answer holds
/// the record whole, or, for a text longer than `text_chars`, its first
/// `text_chars` characters with everything else.
pub(crate) fn head_hint(record: &Record, source: &str, text_chars: usize) -> usize {
    let l2 = L2::new(record, source);
    let text_chars = text_chars.min(l2.chars.len());
    let cut = text_chars < l2.chars.len();
    let length = |head: usize| l2.render(Some(head), text_chars, cut, true, true).chars().count();
    // The answer holds `head` itself: grow it until the answer fits (a digit more at most twice).
    let mut head = length(0);
    while length(head) > head {
        head = length(head);
    }
    head
}

/// One record's L2 answer, to be rendered within a head.
struct L2<'a> {
    record: &'a Record,
    source: &'a str,
    chars: Vec<char>,
}

impl<'a> L2<'a> {
    fn new(record: &'a Record, source: &'a str) -> L2<'a> {
        L2 { record, source, chars: record.text.chars().collect() }
    }

    /// The most of the record that fits in `head` characters (see [`get_json`]).
    fn within(&self, head: Option<usize>) -> String {
        let whole = self.chars.len();
        let full = self.render(head, whole, false, true, true);
        let limit = head.unwrap_or(usize::MAX);
        if full.chars().count() <= limit {
            return full;
        }
        // Cut the text: the most characters whose JSON fits (escaping makes it non-linear, not non-monotonic).
        let fits = |n: usize, refs: bool, tags: bool| {
            self.render(head, n, true, refs, tags).chars().count() <= limit
        };
        for (refs, tags) in [(true, true), (false, true), (false, false)] {
            if !fits(0, refs, tags) {
                continue;
            }
            let (mut fits_n, mut too_many) = (0, whole);
            while too_many - fits_n > 1 {
                let mid = (fits_n + too_many) / 2;
                if fits(mid, refs, tags) { fits_n = mid } else { too_many = mid }
            }
            return self.render(head, fits_n, true, refs, tags);
        }
        tiny(&self.record.id, limit)
    }

    /// The envelope with the first `text_chars` characters of the text, the
    /// refs and tags or not; `cut`: say what was cut (the text at least).
    fn render(&self, head: Option<usize>, text_chars: usize, cut: bool, refs: bool, tags: bool) -> String {
        let record = self.record;
        let mut truncated = vec!["text"];
        let mut keep = |list: &Vec<String>, kept: bool, name| {
            if !kept && !list.is_empty() {
                truncated.push(name);
            }
            if kept { list.clone() } else { Vec::new() }
        };
        // Field by field: the whole text is never copied.
        let shown = Record {
            id: record.id.clone(),
            ts: record.ts.clone(),
            role: record.role.clone(),
            record_type: record.record_type.clone(),
            refs: keep(&record.refs, refs, "refs"),
            text: self.chars[..text_chars].iter().collect(),
            tags: keep(&record.tags, tags, "tags"),
            session_id: record.session_id.clone(),
            meta: record.meta.clone(),
        };
        let mut value = json!({
            "layer": "L2",
            "record": shown,
            "source": self.source,
            "head": head.unwrap_or(self.chars.len()),
            "original_text_len": self.chars.len(),
            "truncated": cut,
        });
        if cut {
            value["truncated_fields"] = json!(truncated);
            value["original_sizes"] =
                json!({"text": self.chars.len(), "refs": record.refs.len(), "tags": record.tags.len()});
        }
        value.to_string()
    }
}

/// The contract's tiny fallback, its id cut to fit `limit` characters if it can.
fn tiny(id: &str, limit: usize) -> String {
    let make = |id: &str| {
        json!({"id": id, "truncated": true, "effective_head": limit, "note": "budget_too_small"}).to_string()
    };
    let chars: Vec<char> = id.chars().collect();
    let mut n = chars.len();
    loop {
        let text = make(&chars[..n].iter().collect::<String>());
        if text.chars().count() <= limit || n == 0 {
            return text;
        }
        n -= 1;
    }
}

/// Move the hot session records older than `cutoff` (ISO-8601) to the archive pool; how many moved.
pub(crate) fn archive(conn: &Connection, cutoff: &str) -> Result<usize> {
    if cutoff.is_empty() {
        return Err(Error::InvalidInput("empty cutoff".into()));
    }
    Ok(conn.execute(
        "UPDATE records SET pool = 'archive'
         WHERE pool = 'hot' AND type NOT IN ('decision', 'attempt') AND ts < ?1",
        [cutoff],
    )?)
}
