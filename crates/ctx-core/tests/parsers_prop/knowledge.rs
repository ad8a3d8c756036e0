//! Committed knowledge (`Workspace::sync_knowledge` reading
//! `.ctx/knowledge/`): files people edit and merge, so any bytes — the
//! files ctx wrote spoiled line by line, merge conflicts, BOMs, CRLF, raw
//! bytes — are read in, or refused with an error naming the file.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use ctxkeep_core::{FolderEdit, NewDecision, NewFrame, NewTask, Workspace};
use proptest::prelude::*;

use super::toml_text::{spoiled_toml, toml_value};
use super::{soup, workspace};

/// A workspace with one item of each kind written out as a file; the
/// files' paths (under `.ctx/knowledge/`) and lines.
struct Seeded {
    _dir: tempfile::TempDir,
    ws: Workspace,
    knowledge: PathBuf,
    files: Vec<(String, Vec<String>)>,
}

fn seeded() -> Seeded {
    let (dir, mut ws) = workspace();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "//! The library.\n").unwrap();
    ws.scan().unwrap();
    let edit =
        FolderEdit { description: Some("The sources".into()), content_md: Some("Long *form*.".into()) };
    ws.describe_folder("src", &edit).unwrap();
    ws.relate("src", ".", Some("part of")).unwrap();
    let decision =
        NewDecision { title: "Use SQLite".into(), rationale: "One file".into(), tags: vec!["db".into()] };
    ws.log_decision("src", &decision).unwrap();
    let frame = ws.push_frame(&NewFrame { goal: "Ship it\nwell".into(), ..Default::default() }).unwrap();
    ws.add_task(&NewTask {
        title: "Write docs".into(),
        epic: Some(frame.id.clone()),
        criteria: vec!["Read well".into()],
        ..Default::default()
    })
    .unwrap();
    ws.pin("Always run the tests").unwrap();
    let knowledge = ws.ctx_dir().join("knowledge");
    let files: Vec<(String, Vec<String>)> = list(&knowledge)
        .into_iter()
        .map(|rel| {
            let text = std::fs::read_to_string(knowledge.join(&rel)).unwrap();
            (rel, text.lines().map(str::to_string).collect())
        })
        .collect();
    assert!(files.len() >= 5, "{files:?}");
    Seeded { _dir: dir, ws, knowledge, files }
}

thread_local! {
    static SEEDED: RefCell<Seeded> = RefCell::new(seeded());
}

/// Lines of noise in a knowledge file.
fn noise() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "+++",
                "<<<<<<< HEAD",
                "=======",
                ">>>>>>> branch",
                "path = \"../../etc\"",
                "id = \"F999999999999999999999\"",
                "parent = \"F1\"",
                "status = \"done\"",
                "tags = [\"two words\"]",
                "[[related]]",
            ][..]
        )
        .prop_map(str::to_string),
        toml_value().prop_map(|v| format!("unknown = {v}")),
        soup(&["+", "=", "\"", "[", "]", "#", "\n"], 10),
    ]
}

/// What string values are made of: text that means something to a
/// knowledge file, a path, a frame id or the store.
const STRINGS: &[&str] = &[
    "+++",
    "\n",
    "\r\n",
    "<<<<<<< HEAD",
    "=======",
    ">>>>>>> b",
    "..",
    "/",
    ".",
    "F1",
    "F0",
    "D-",
    "H-",
    " ",
    "\t",
    "two words",
    "\u{0}",
    "\u{FEFF}",
    "é",
    "AKIAIOSFODNN7EXAMPLE",
    "in_progress",
    "planned",
    "src",
];

/// `lines` with the value of one `key = "string"` line replaced by `text`
/// (as a TOML string); LF or CRLF.
fn restring(lines: &[String], pick: prop::sample::Index, text: &str, crlf: bool) -> Vec<u8> {
    let mut lines = lines.to_vec();
    let strings: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" = \"")).collect();
    if !strings.is_empty() {
        let at = strings[pick.index(strings.len())];
        let key = lines[at].split(" = ").next().unwrap_or_default().to_string();
        // JSON's string escapes are TOML's.
        lines[at] = format!("{key} = {}", serde_json::to_string(text).unwrap());
    }
    let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
    text.push('\n');
    text.into_bytes()
}

/// What is written: a seed file's path, whether the bytes go beside it
/// (a new file of the same kind) instead of over it, and the bytes: its
/// lines spoiled, with a BOM or not; or bytes of any kind.
fn case() -> impl Strategy<Value = (String, bool, Vec<u8>)> {
    let files = SEEDED.with_borrow(|seeded| seeded.files.clone());
    prop::sample::select(files).prop_flat_map(|(rel, lines)| {
        let lines_ = lines.clone();
        let text = prop_oneof![
            3 => (any::<prop::sample::Index>(), soup(STRINGS, 12), any::<bool>())
                .prop_map(move |(i, text, crlf)| restring(&lines_, i, &text, crlf)),
            3 => spoiled_toml(Just(lines.clone()), noise(), 0),
            2 => spoiled_toml(Just(lines), noise(), 1),
            1 => prop::collection::vec(any::<u8>(), 0..300),
        ];
        (Just(rel), any::<bool>(), text, any::<bool>()).prop_map(|(rel, beside, text, bom)| {
            let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            bytes.extend(text);
            (rel, beside, bytes)
        })
    })
}

/// The files of `knowledge` (relative paths, with `/`).
fn list(knowledge: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![knowledge.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                found.push(path.strip_prefix(knowledge).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// Make `knowledge` hold `files` and nothing else.
fn restore(knowledge: &Path, files: &[(String, Vec<String>)]) {
    for path in list(knowledge) {
        if !files.iter().any(|(rel, _)| *rel == path) {
            std::fs::remove_file(knowledge.join(path)).unwrap();
        }
    }
    for (rel, lines) in files {
        write(&knowledge.join(rel), format!("{}\n", lines.join("\n")).as_bytes());
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

proptest! {
    #![proptest_config(super::cases(400))]

    /// Any bytes in a knowledge file: read in, or INVALID_KNOWLEDGE_FILE
    /// naming it with nothing applied; put back as it was, the workspace
    /// syncs again.
    #[test]
    fn knowledge_files_take_anything((rel, beside, bytes) in case()) {
        SEEDED.with_borrow_mut(|seeded| {
            let target = if beside { rel.replace(".md", "-new.md") } else { rel.clone() };
            let path = seeded.knowledge.join(&target);
            write(&path, &bytes);
            match seeded.ws.sync_knowledge() {
                Ok(_) => {}
                Err(err) => {
                    prop_assert_eq!(err.code(), "INVALID_KNOWLEDGE_FILE", "{}", err);
                    prop_assert!(err.to_string().contains(".md"), "{}", err);
                }
            }
            // Put back as it was (a file read in may have been renamed, or written out anew).
            restore(&seeded.knowledge, &seeded.files);
            let again = seeded.ws.sync_knowledge();
            prop_assert!(again.is_ok(), "after putting {target} back: {again:?}");
            Ok(())
        })?;
    }
}
