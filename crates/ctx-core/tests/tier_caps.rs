//! Every minimal, standard and full context file stays within its tier's
//! token cap (counted exactly, with o200k_base, over the whole file), on
//! random trees with long descriptions, content and decision logs, whose
//! texts include markdown punctuation and line breaks (where o200k's tokens
//! can span lines) — with either tokenizer, o200k or the 4-chars estimate.

use ctxkeep_core::tokens::TokenizerKind;
use ctxkeep_core::{BuildOptions, FolderEdit, NewDecision, Tier, Workspace};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct FolderSpec {
    path: Vec<String>,
    files: Vec<(String, String)>,
    description: String,
    content: String,
    is_scope: bool,
    decisions: Vec<(String, String, bool)>,
}

/// Prose of up to about `max_chars`: words, numbers, non-ASCII, code, and a
/// few very long "words" that no cut can split nicely.
fn words(max_chars: usize) -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-zA-Z]{1,12}",
        "[0-9]{1,6}",
        Just("äöü".to_string()),
        Just("—".to_string()),
        Just("🚀".to_string()),
        Just("`parse_config()`".to_string()),
        "[a-z]{40,90}",
        Just("**Bold**\n/etc".to_string()),
        Just("\r\n".to_string()),
        Just("*/\n//".to_string()),
        Just("\n\n  -".to_string()),
    ];
    proptest::collection::vec(word, 0..max_chars / 6).prop_map(|words| words.join(" "))
}

fn folder() -> impl Strategy<Value = FolderSpec> {
    (
        proptest::collection::vec("[a-z][a-z0-9_-]{0,14}", 1..5),
        proptest::collection::vec(("[a-z]{1,20}\\.(py|rs|ts|md|txt)", words(300)), 0..30),
        words(400),
        proptest::collection::vec(words(600), 0..12).prop_map(|paras| paras.join("\n\n")),
        any::<bool>(),
        proptest::collection::vec((words(120), words(900), any::<bool>()), 0..12),
    )
        .prop_map(|(path, files, description, content, is_scope, decisions)| FolderSpec {
            path,
            files,
            description: one_line(&description),
            content,
            is_scope,
            decisions,
        })
}

/// Descriptions and titles are single lines.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

fn write_tree(root: &std::path::Path, folders: &[FolderSpec]) {
    for spec in folders {
        let dir = root.join(spec.path.join("/"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("README.md"), format!("# T\n\n{}\n", spec.description)).unwrap();
        for (name, text) in &spec.files {
            let body =
                if name.ends_with(".py") { format!("\"\"\"{text}\"\"\"\n") } else { format!("{text}\n") };
            std::fs::write(dir.join(name), body).unwrap();
        }
    }
}

/// A workspace on `dir` that counts tokens with `kind`.
fn init_with(dir: &std::path::Path, kind: TokenizerKind) -> Workspace {
    let (mut ws, _) = Workspace::init(dir).unwrap();
    if kind == TokenizerKind::Estimate {
        let config = dir.join(".ctx/config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        assert!(text.contains("tokenizer = \"o200k\""));
        std::fs::write(&config, text.replace("tokenizer = \"o200k\"", "tokenizer = \"estimate\"")).unwrap();
        ws.reload_config().unwrap();
        assert_eq!(ws.config().build.tokenizer, TokenizerKind::Estimate);
    }
    ws
}

/// Tokens of `text` as the tier caps count them: o200k by tiktoken-rs (an
/// implementation apart from ctx's own), or the estimate.
fn count(kind: TokenizerKind, text: &str) -> usize {
    match kind {
        TokenizerKind::O200k => tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len(),
        TokenizerKind::Estimate => kind.get().count(text),
    }
}

/// Every capped file of `dir`'s build is within its cap; returns how many were
/// checked and the names of those that say they left something out.
fn check_caps(dir: &std::path::Path, kind: TokenizerKind) -> (usize, Vec<String>) {
    let (mut checked, mut cut) = (0, Vec::new());
    for entry in std::fs::read_dir(dir.join(".ctx/context")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let tier = ["minimal", "standard", "full", "deep"]
            .into_iter()
            .find(|t| name.ends_with(&format!(".{t}.md")))
            .and_then(Tier::parse)
            .unwrap();
        assert!(text.starts_with("# Context: /"), "{name} lost its header");
        if let Some(cap) = tier.cap() {
            let tokens = count(kind, &text);
            assert!(tokens <= cap, "{name}: {tokens} tokens > {cap} ({kind:?})");
            checked += 1;
            if text.contains("## Left out to fit") {
                cut.push(name);
            }
        }
    }
    (checked, cut)
}

#[test]
fn a_tree_too_big_for_its_tiers_is_cut_to_fit_with_either_tokenizer() {
    for kind in [TokenizerKind::O200k, TokenizerKind::Estimate] {
        let dir = tempfile::tempdir().unwrap();
        let long = "The scheduler keeps one queue per worker and steals from the others. ".repeat(60);
        let mut path = String::new();
        for depth in 0..5 {
            path = if path.is_empty() { format!("d{depth}") } else { format!("{path}/d{depth}") };
            std::fs::create_dir_all(dir.path().join(&path)).unwrap();
            for f in 0..30 {
                std::fs::write(
                    dir.path().join(format!("{path}/file_{f}.py")),
                    format!("\"\"\"{long}\"\"\"\n"),
                )
                .unwrap();
            }
        }
        let mut ws = init_with(dir.path(), kind);
        ws.scan().unwrap();
        let mut key = String::new();
        for depth in 0..5 {
            key = if key.is_empty() { format!("d{depth}") } else { format!("{key}/d{depth}") };
            let edit =
                FolderEdit { description: Some(format!("Level {depth}.")), content_md: Some(long.repeat(3)) };
            ws.describe_folder(&key, &edit).unwrap();
            ws.set_scope(&key, true).unwrap();
            for n in 0..8 {
                let decision =
                    NewDecision { title: format!("Decision {n}"), rationale: long.clone(), tags: vec![] };
                ws.log_decision(&key, &decision).unwrap();
            }
        }
        ws.build(&BuildOptions::default()).unwrap();
        let (checked, mut cut) = check_caps(dir.path(), kind);
        // Six folders (the root too), three capped tiers each; the standard
        // files of the five long folders had to cut (the minimal tier leaves
        // content and decisions out by design; the full one may have room).
        assert_eq!(checked, 18);
        cut.retain(|name| name.ends_with(".standard.md"));
        cut.sort();
        let mut expected: Vec<String> =
            ["d0", "d0--d1", "d0--d1--d2", "d0--d1--d2--d3", "d0--d1--d2--d3--d4"]
                .iter()
                .map(|f| format!("{f}.standard.md"))
                .collect();
        expected.sort();
        assert_eq!(cut, expected, "{kind:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn capped_tiers_hold_their_caps(
        folders in proptest::collection::vec(folder(), 1..10),
        estimate in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        write_tree(dir.path(), &folders);
        let kind = if estimate { TokenizerKind::Estimate } else { TokenizerKind::O200k };
        let mut ws = init_with(dir.path(), kind);
        ws.scan().unwrap();
        for spec in &folders {
            let key = spec.path.join("/");
            if !spec.description.trim().is_empty() || !spec.content.is_empty() {
                let edit = FolderEdit {
                    description: Some(spec.description.trim().to_string()),
                    content_md: Some(spec.content.clone()),
                };
                ws.describe_folder(&key, &edit).unwrap();
            }
            ws.set_scope(&key, spec.is_scope).unwrap();
            for (title, rationale, pinned) in &spec.decisions {
                let title = one_line(title);
                let title = if title.trim().is_empty() { "untitled".to_string() } else { title.trim().to_string() };
                let tags = if *pinned { vec!["architectural".to_string()] } else { Vec::new() };
                let decision = NewDecision { title, rationale: rationale.clone(), tags };
                ws.log_decision(&key, &decision).unwrap();
            }
        }
        // A root with long content: the project boot every file carries.
        let boot = folders.iter().map(|f| f.content.as_str()).collect::<Vec<_>>().join("\n\n");
        ws.describe_folder(".", &FolderEdit { description: None, content_md: Some(boot) }).unwrap();

        ws.build(&BuildOptions::default()).unwrap();
        let (checked, _) = check_caps(dir.path(), kind);
        prop_assert!(checked >= 3);
    }
}
