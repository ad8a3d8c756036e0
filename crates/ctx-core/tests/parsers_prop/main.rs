//! Parsers that take anything (issue 19, item 5): every parser a user's
//! text reaches gets arbitrary bytes and near-valid input (real lines with
//! fields of the wrong type, truncated lines, huge numbers, invalid UTF-8,
//! CRLF, NUL, deep nesting, BOMs) and must answer with a value or a typed
//! error — never a panic, never a hang. Each module names the parser it
//! covers; the case counts are in its `ProptestConfig`s.

mod config;
mod ingest;
mod knowledge;
mod names;
mod search;
mod section;
mod toml_text;

use std::path::Path;

use ctxkeep_core::Workspace;
use proptest::prelude::*;

/// The config of a property run of `n` cases, times `CTX_PROPTEST_SCALE`
/// when it is set (a longer soak: `CTX_PROPTEST_SCALE=20`).
pub fn cases(n: u32) -> ProptestConfig {
    let scale = std::env::var("CTX_PROPTEST_SCALE").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(1);
    ProptestConfig::with_cases(n.saturating_mul(scale.max(1)))
}

/// A fresh workspace in a temp folder.
pub fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let (ws, _) = Workspace::init(dir.path()).unwrap();
    (dir, ws)
}

/// The repository's folder (for its test fixtures).
pub fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Text a user might type or paste: any characters (control ones, NUL,
/// BOMs and unpaired-looking surrogates' neighbours included), weighted
/// toward the characters parsers react to.
pub fn soup(specials: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(specials).prop_map(str::to_string),
        2 => any::<char>().prop_map(String::from),
        1 => prop::sample::select(&["\0", "\r\n", "\n", "\u{FEFF}", "\u{202E}", "e\u{301}", "İ", "ß", "💥", "\t"][..])
            .prop_map(str::to_string),
        1 => "[a-z0-9]{1,8}",
    ];
    prop::collection::vec(piece, 0..max).prop_map(|pieces| pieces.concat())
}
