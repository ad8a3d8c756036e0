//! JSONL ingest (`Workspace::ingest`, `Workspace::ingest_transcript`):
//! ctx records, Claude Code transcripts and Codex rollouts, told apart line
//! by line (`memory/ingest/`), and the transcript cursor (`memory/transcript.rs`).

use std::cell::RefCell;
use std::io::Write;
use std::sync::OnceLock;

use ctxkeep_core::{IngestReport, Workspace};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::{repo_root, workspace};

/// Every line of the transcript fixtures (Claude Code 1.0.98 and 2.1.39,
/// Codex 0.46 and 0.169) and of ctx's own format.
fn real_lines() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut files = vec![repo_root().join("crates/ctx-core/tests/fixtures/claude_code_session.jsonl")];
        let mut dirs = vec![repo_root().join("tests/fixtures/transcripts")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "jsonl") {
                    files.push(path);
                }
            }
        }
        let mut lines: Vec<String> = files
            .iter()
            .flat_map(|f| std::fs::read_to_string(f).unwrap().lines().map(str::to_string).collect::<Vec<_>>())
            .filter(|l| !l.trim().is_empty())
            .collect();
        lines.extend([
            r#"{"type":"note","text":"a note","ts":"2026-01-02T03:04:05Z","tags":["x"],"refs":["H-1"],"meta":{"k":1}}"#
                .to_string(),
            r#"{"type":"query","role":"user","text":"fix the pool","session_id":"s1","id":"own-7"}"#.to_string(),
        ]);
        assert!(lines.len() > 90, "the fixtures are where they were");
        lines
    })
}

/// A JSON value of any type, the awkward ones favoured: huge and negative
/// numbers, floats, control characters, deep nesting.
fn odd_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON numbers are finite", |f| f.is_finite()).prop_map(Value::from),
        Just(json!(1e308)),
        Just(json!(-0.0)),
        ".{0,12}".prop_map(Value::from),
        Just(json!("\u{0}\r\n\u{1b}[2J\u{FEFF}")),
        Just(json!("")),
        Just(json!("   ")),
        Just(json!("<command-name>/x</command-name>")),
        Just(json!("<bash-input>")),
        Just(json!("rollout-€aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jsonl")),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(&KEYS[..]).prop_map(str::to_string),
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The keys the formats read.
const KEYS: [&str; 24] = [
    "type",
    "text",
    "role",
    "content",
    "message",
    "payload",
    "uuid",
    "sessionId",
    "timestamp",
    "ts",
    "id",
    "tool_use_id",
    "input",
    "name",
    "call_id",
    "output",
    "tags",
    "refs",
    "meta",
    "usage",
    "isSidechain",
    "summary",
    "leafUuid",
    "info",
];

/// Every place in `value` (objects' members and arrays' items), as paths.
fn places(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(Step::Key(key.clone()));
                out.push(path.clone());
                places(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(Step::Index(i));
                out.push(path.clone());
                places(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at<'v>(value: &'v mut Value, path: &[Step]) -> &'v mut Value {
    path.iter().fold(value, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// How a real line is spoiled.
#[derive(Debug, Clone)]
enum Spoil {
    /// A field (any depth) of another type or value.
    Replace(prop::sample::Index, Value),
    /// A field removed.
    Remove(prop::sample::Index),
    /// A field added at the top.
    Add(String, Value),
    /// Cut short at a byte.
    Truncate(prop::sample::Index),
    /// Bytes put in at a byte.
    Splice(prop::sample::Index, Vec<u8>),
    /// Wrapped in this many arrays.
    Nest(usize),
}

/// A spoil that leaves the line JSON.
fn reshape() -> impl Strategy<Value = Spoil> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), odd_value()).prop_map(|(i, v)| Spoil::Replace(i, v)),
        2 => any::<prop::sample::Index>().prop_map(Spoil::Remove),
        1 => (prop::sample::select(&KEYS[..]).prop_map(str::to_string), odd_value()).prop_map(|(k, v)| Spoil::Add(k, v)),
    ]
}

/// A spoil that (most likely) breaks the line's JSON.
fn breakage() -> impl Strategy<Value = Spoil> {
    prop_oneof![
        2 => any::<prop::sample::Index>().prop_map(Spoil::Truncate),
        2 => (any::<prop::sample::Index>(), prop::collection::vec(
            prop_oneof![Just(0xFFu8), Just(0xC3), Just(b'\r'), Just(b'"'), Just(b'\\'), Just(b'}'), any::<u8>()]
                .prop_filter("no NUL, no newline", |b| *b != 0 && *b != b'\n'), 1..4))
            .prop_map(|(i, b)| Spoil::Splice(i, b)),
        1 => (1usize..300).prop_map(Spoil::Nest),
    ]
}

fn apply(line: &str, spoils: &[Spoil]) -> Vec<u8> {
    let mut value: Value = serde_json::from_str(line).unwrap();
    let mut bytes = None;
    for spoil in spoils {
        let mut paths = Vec::new();
        places(&value, &mut Vec::new(), &mut paths);
        match spoil {
            Spoil::Replace(i, new) if !paths.is_empty() => {
                *at(&mut value, &paths[i.index(paths.len())]) = new.clone()
            }
            Spoil::Remove(i) if !paths.is_empty() => {
                let path = &paths[i.index(paths.len())];
                let (last, parent) = path.split_last().unwrap();
                match (at(&mut value, parent), last) {
                    (Value::Object(map), Step::Key(k)) => {
                        map.remove(k);
                    }
                    (Value::Array(items), Step::Index(i)) => {
                        items.remove(*i);
                    }
                    _ => {}
                }
            }
            Spoil::Add(key, new) => {
                if let Value::Object(map) = &mut value {
                    map.insert(key.clone(), new.clone());
                }
            }
            Spoil::Nest(depth) => {
                let text = value.to_string();
                bytes = Some(format!("{}{text}{}", "[".repeat(*depth), "]".repeat(*depth)).into_bytes());
            }
            Spoil::Truncate(i) => {
                let mut text = bytes.take().unwrap_or_else(|| value.to_string().into_bytes());
                text.truncate(i.index(text.len().max(1)));
                bytes = Some(text);
            }
            Spoil::Splice(i, extra) => {
                let mut text = bytes.take().unwrap_or_else(|| value.to_string().into_bytes());
                let at = i.index(text.len().max(1)).min(text.len());
                text.splice(at..at, extra.iter().copied());
                bytes = Some(text);
            }
            _ => {}
        }
    }
    bytes.unwrap_or_else(|| value.to_string().into_bytes())
}

/// One line of input: real, spoiled, or noise.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let real =
        || any::<prop::sample::Index>().prop_map(|i| real_lines()[i.index(real_lines().len())].clone());
    prop_oneof![
        3 => real().prop_map(String::into_bytes),
        6 => (real(), prop::collection::vec(reshape(), 1..4)).prop_map(|(line, spoils)| apply(&line, &spoils)),
        2 => (real(), prop::collection::vec(reshape(), 0..2), breakage())
            .prop_map(|(line, mut spoils, broken)| {
                spoils.push(broken);
                apply(&line, &spoils)
            }),
        1 => prop::collection::vec(any::<u8>().prop_filter("one line, no NUL", |b| *b != b'\n' && *b != 0), 0..200),
        1 => "[^\\x00\\n]{0,80}".prop_map(String::into_bytes),
        1 => (0usize..20_000).prop_map(|n| format!("{}1{}", "[".repeat(n), "]".repeat(n)).into_bytes()),
        1 => Just(b"{\"type\":\"note\",\"text\":\"x\",\"ts\":99999999999999999999999}".to_vec()),
    ]
}

/// Input: lines joined by LF or CRLF, maybe a BOM first, maybe no final
/// newline, now and then a NUL byte somewhere (binary).
fn input() -> impl Strategy<Value = Vec<u8>> {
    let nul = prop::option::weighted(0.05, any::<prop::sample::Index>());
    (prop::collection::vec(line(), 0..12), any::<bool>(), any::<bool>(), any::<bool>(), nul).prop_map(
        |(lines, crlf, bom, final_eol, nul)| {
            let mut out = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            for (i, line) in lines.iter().enumerate() {
                out.extend_from_slice(line);
                if i + 1 < lines.len() || final_eol {
                    out.extend_from_slice(eol);
                }
            }
            if let Some(at) = nul {
                let at = at.index(out.len() + 1);
                out.insert(at, 0);
            }
            out
        },
    )
}

/// A file name an ingest is told (it may say a Codex session).
fn source() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("-".to_string()),
        Just("rollout-2025-10-05T14-30-00-0199b2c4-5b6d-7e8f-9a0b-1c2d3e4f5a03.jsonl".to_string()),
        "rollout-.{0,50}(\\.jsonl)?",
        ".{0,40}",
    ]
}

/// What every report says of itself.
fn check_report(report: &IngestReport, input: &[u8]) -> Result<(), TestCaseError> {
    let lines = input.split(|b| *b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count();
    prop_assert!(report.lines <= lines, "{} lines read of {lines}", report.lines);
    prop_assert!(report.errors.len() + report.empty <= report.lines);
    prop_assert_eq!(
        report.ctx_lines + report.claude_code_lines + report.codex_lines + report.errors.len()
            >= report.lines,
        true
    );
    let typed: usize = report.types.values().sum();
    prop_assert_eq!(typed, report.added + report.duplicates);
    for error in &report.errors {
        prop_assert!(error.line >= 1 && !error.message.is_empty());
    }
    Ok(())
}

thread_local! {
    static WS: RefCell<(tempfile::TempDir, Workspace)> = RefCell::new(workspace());
}

proptest! {
    #![proptest_config(super::cases(500))]

    /// Any input: a report (malformed lines by number) or a typed error
    /// that added nothing; and the same input again adds nothing.
    #[test]
    fn ingest_takes_anything(input in input(), source in source()) {
        WS.with_borrow_mut(|(_dir, ws)| {
            let before = ws.status().unwrap().records;
            match ws.ingest(&mut &input[..], &source) {
                Ok(report) => {
                    check_report(&report, &input)?;
                    prop_assert_eq!(ws.status().unwrap().records, before + report.added);
                    let again = ws.ingest(&mut &input[..], &source).unwrap();
                    prop_assert_eq!(again.added, 0, "ingesting again added records: {:?}", again);
                }
                Err(err) => {
                    prop_assert_eq!(err.code(), "INVALID_INPUT", "{}", err);
                    prop_assert_eq!(ws.status().unwrap().records, before, "a refused ingest added records");
                }
            }
            Ok(())
        })?;
    }

    /// Raw bytes, nothing JSON about them.
    #[test]
    fn ingest_takes_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..4000)) {
        WS.with_borrow_mut(|(_dir, ws)| {
            match ws.ingest(&mut &input[..], "noise") {
                Ok(report) => check_report(&report, &input)?,
                Err(err) => prop_assert_eq!(err.code(), "INVALID_INPUT", "{}", err),
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(super::cases(100))]

    /// A transcript that grows by anything (a half line, a rewrite): the
    /// cursor stays within the file, and what is pending is the part after it.
    #[test]
    fn a_transcript_growing_by_anything_is_read_in_bounds(parts in prop::collection::vec((input(), any::<bool>()), 1..4)) {
        WS.with_borrow_mut(|(dir, ws)| {
            let path = dir.path().join("session.jsonl");
            let mut file = std::fs::File::create(&path).unwrap();
            let mut size = 0u64;
            for (part, rewrite) in &parts {
                if *rewrite {
                    file = std::fs::File::create(&path).unwrap();
                    size = 0;
                }
                file.write_all(part).unwrap();
                size += part.len() as u64;
                match ws.ingest_transcript(&path, None) {
                    Ok(report) => {
                        prop_assert!(report.from <= report.to && report.to <= size, "{report:?}");
                        prop_assert_eq!(report.pending, size - report.to);
                    }
                    Err(err) => prop_assert_eq!(err.code(), "INVALID_INPUT", "{}", err),
                }
            }
            Ok(())
        })?;
    }
}

/// Regression: a rollout's file name tells its session by its last 36
/// bytes, which were cut at a byte inside a character (a panic).
#[test]
fn a_rollout_name_cut_inside_a_character_is_no_session() {
    let (_dir, mut ws) = workspace();
    let line = br#"{"timestamp":"2025-10-05T14:30:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}"#;
    let source = format!("rollout-\u{20AC}{}.jsonl", "a".repeat(35));
    let report = ws.ingest(&mut &line[..], &source).unwrap();
    assert_eq!((report.codex_lines, report.added), (1, 1));
    let report = ws.ingest(
        &mut &b"\n"[..],
        "rollout-\u{800}\u{10000}\u{800}a\u{10000}0a\u{10000}A0 A\u{b}0a\u{10000}a\u{800}0",
    );
    assert!(report.is_ok(), "{report:?}");
}

/// Regression: a file saved with a byte order mark lost its first line
/// ("not JSON"); a BOM alone was "no line could be read".
#[test]
fn a_byte_order_mark_is_not_part_of_the_first_line() {
    let (_dir, mut ws) = workspace();
    let input =
        b"\xEF\xBB\xBF{\"type\":\"note\",\"text\":\"first\"}\r\n{\"type\":\"note\",\"text\":\"second\"}\r\n";
    let report = ws.ingest(&mut &input[..], "bom.jsonl").unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!((report.lines, report.added), (2, 2));
    let report = ws.ingest(&mut &b"\xEF\xBB\xBF"[..], "bom.jsonl").unwrap();
    assert_eq!((report.lines, report.added), (0, 0));
}
