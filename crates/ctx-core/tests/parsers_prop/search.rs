//! The search query builder (`memory/search.rs`: user text → FTS5 MATCH
//! terms, and the filters: types, tags, times), run through
//! `Workspace::search` against a real store, so SQLite parses every query
//! it builds; the vector channel's embedder reads the same text.

use std::cell::RefCell;

use ctxkeep_core::{SearchMode, SearchOptions, SearchScope, Workspace};
use proptest::prelude::*;

use super::{soup, workspace};

/// What FTS5's query syntax and the filters react to.
const SPECIALS: &[&str] = &[
    "\"",
    "'",
    "*",
    ":",
    "-",
    "+",
    "^",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    "NEAR",
    "NEAR(",
    "AND",
    "OR",
    "NOT",
    "and",
    " ",
    " ",
    "--",
    "/*",
    "\\",
    "%",
    "_",
    "pool",
    "timeout",
    "col:",
    "records_fts",
    "rowid",
    "\u{0}",
    "'; DROP TABLE records; --",
    "!",
];

/// Text for a time bound: dates, RFC 3339 times, durations, and junk.
fn time_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "2026-02-10",
                "9999-12-31",
                "0000-01-01",
                "1969-12-31",
                "2026-02-10T14:00:00Z",
                "7d",
                "100years",
                "1000000000000000000s",
                "18446744073709551615ns",
                "584542046090626y",
            ][..]
        )
        .prop_map(str::to_string),
        (
            0u64..100_000,
            prop::sample::select(&["s", "m", "h", "d", "w", "weeks", "months", "y", "years"][..])
        )
            .prop_map(|(n, unit)| format!("{n}{unit}")),
        "[0-9]{4}-[0-9]{2}-[0-9]{2}",
        "[0-9]{1,20}[a-z]{0,6}",
        ".{0,20}",
    ]
}

fn word_list() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![soup(&["!", " ", "query", "note", "x"], 4), Just("!".to_string())],
        0..3,
    )
}

/// A store with records to match (words, phrases, tags, sessions, times).
fn store() -> (tempfile::TempDir, Workspace) {
    let (dir, mut ws) = workspace();
    let lines = [
        r#"{"type":"query","role":"user","text":"the pool times out under load","ts":"2026-01-02T03:04:05Z","session_id":"s1","tags":["db"]}"#,
        r#"{"type":"note","text":"NEAR and AND OR NOT are words too: pool-timeout col:x","tags":["x"]}"#,
        r#"{"type":"response","role":"assistant","text":"ünïcödé 名前 done","ts":"n/a"}"#,
        r#"{"type":"tool_output","role":"tool","text":"\"quoted\" * stars ^ and (parens)","ts":"2020-05-05"}"#,
    ];
    ws.ingest(&mut lines.join("\n").as_bytes(), "-").unwrap();
    (dir, ws)
}

thread_local! {
    static WS: RefCell<(tempfile::TempDir, Workspace)> = RefCell::new(store());
}

proptest! {
    #![proptest_config(super::cases(1500))]

    /// Any query text searches: no FTS5 syntax error (or any other) ever
    /// reaches the user, whatever the mode.
    #[test]
    fn any_query_text_searches(
        query in prop_oneof![soup(SPECIALS, 24), any::<String>()],
        mode in prop::sample::select(&[SearchMode::Lexical, SearchMode::Hybrid, SearchMode::Vector][..]),
        k in 1usize..50,
    ) {
        WS.with_borrow(|(_dir, ws)| {
            let options = SearchOptions { query: query.clone(), mode, k, ..Default::default() };
            match ws.search_unrecorded(&options) {
                Ok(response) => {
                    prop_assert!(response.results.len() <= k);
                    prop_assert_eq!(response.query, query);
                }
                Err(err) => return Err(TestCaseError::fail(format!("{query:?}: {}: {err}", err.code()))),
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(super::cases(800))]

    /// Any filters: results, or INVALID_INPUT naming what is wrong.
    #[test]
    fn any_filters_search_or_are_refused(
        query in soup(SPECIALS, 6),
        types in word_list(),
        tags in word_list(),
        since in prop::option::of(time_text()),
        until in prop::option::of(time_text()),
        session in prop::option::of(soup(SPECIALS, 4)),
        scope in prop::sample::select(&[SearchScope::All, SearchScope::Hot, SearchScope::Archive][..]),
    ) {
        WS.with_borrow(|(_dir, ws)| {
            let options = SearchOptions { query, types, tags, since, until, session, scope, ..Default::default() };
            if let Err(err) = ws.search_unrecorded(&options) {
                prop_assert_eq!(err.code(), "INVALID_INPUT", "{:?}: {}", options, err);
            }
            Ok(())
        })?;
    }
}

/// Regression: a duration reaching back before 1970 made a time that
/// could not be written (a panic); it means since the beginning.
#[test]
fn a_duration_before_1970_is_since_the_beginning() {
    let (_dir, ws) = store();
    let search = |since: Option<&str>, until: Option<&str>| {
        let options = SearchOptions {
            query: "pool".into(),
            since: since.map(str::to_string),
            until: until.map(str::to_string),
            ..Default::default()
        };
        ws.search_unrecorded(&options).map(|r| r.hits)
    };
    assert_eq!(search(Some("100years"), None).unwrap(), 2);
    assert_eq!(search(None, Some("100years")).unwrap(), 0);
    assert_eq!(search(Some("584542046090626y"), None).unwrap_err().code(), "INVALID_INPUT");
}
