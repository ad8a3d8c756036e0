//! Every minimal, standard and full context file stays within its tier's
//! token cap (counted exactly, with o200k_base, over the whole file), on
//! random trees with long descriptions, content and decision logs, whose
//! texts include markdown punctuation and line breaks (where o200k's tokens
//! can span lines).

use ctx_core::{BuildOptions, FolderEdit, NewDecision, Tier, Workspace};
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn capped_tiers_hold_their_caps(folders in proptest::collection::vec(folder(), 1..10)) {
        let dir = tempfile::tempdir().unwrap();
        write_tree(dir.path(), &folders);
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
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
        let context = dir.path().join(".ctx/context");
        let mut checked = 0;
        for entry in std::fs::read_dir(&context).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let tier = ["minimal", "standard", "full", "deep"]
                .into_iter()
                .find(|t| name.ends_with(&format!(".{t}.md")))
                .and_then(Tier::parse)
                .unwrap();
            prop_assert!(text.starts_with("# Context: /"), "{name} lost its header");
            if let Some(cap) = tier.cap() {
                let tokens = tiktoken_rs::o200k_base_singleton().encode_ordinary(&text).len();
                prop_assert!(tokens <= cap, "{name}: {tokens} tokens > {cap}");
                checked += 1;
            }
        }
        prop_assert!(checked >= 3);
    }
}
