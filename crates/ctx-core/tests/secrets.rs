//! Secrets through the library: what a workspace stores is redacted, and a
//! store written under other rules is scrubbed when it is opened.

use ctxkeep_core::{FolderEdit, NewRecord, SearchOptions, Workspace};

/// A random-looking value (fixed per seed) that the generic rule flags after `API_KEY = `.
fn value(seed: u64) -> String {
    let alphabet: Vec<char> =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".chars().collect();
    let mut state = seed;
    (0..32)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[(state >> 33) as usize % alphabet.len()]
        })
        .collect()
}

fn db_holds(root: &std::path::Path, needle: &str) -> bool {
    ["ctx.db", "ctx.db-wal"].iter().any(|name| {
        std::fs::read(root.join(".ctx").join(name))
            .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
    })
}

#[test]
fn allowed_values_are_stored_and_scrubbed_once_no_longer_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "//! The library.\n").unwrap();
    let secret = value(7);
    let (mut ws, _) = Workspace::init(root).unwrap();
    let fingerprint = ctxkeep_core::secrets::fingerprint(&secret);
    let config = root.join(".ctx/config.toml");
    std::fs::write(&config, format!("[secrets]\nallow_fingerprints = [\"{fingerprint}\"]\n")).unwrap();
    ws.reload_config().unwrap();
    ws.scan().unwrap();

    // Allowed: stored as written.
    let text = format!("deploy with API_KEY = \"{secret}\" tonight");
    let record = ws
        .add_record(&NewRecord { record_type: "note".into(), text: text.clone(), ..Default::default() })
        .unwrap();
    assert_eq!(record.text, text);
    let edit = FolderEdit { description: Some(format!("API_KEY = \"{secret}\"")), content_md: None };
    ws.describe_folder("src", &edit).unwrap();
    // Not allowed: redacted on the way in.
    let other = value(8);
    let redacted = ws
        .add_record(&NewRecord {
            record_type: "note".into(),
            text: format!("API_KEY = \"{other}\""),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(redacted.text, "API_KEY = \"[REDACTED:secret-assignment]\"");
    drop(ws);
    assert!(db_holds(root, &secret));
    assert!(!db_holds(root, &other));

    // The allow-list goes: the next open scrubs what it let in.
    std::fs::write(&config, "").unwrap();
    let ws = Workspace::open(root).unwrap();
    assert_eq!(
        ws.record(&record.id).unwrap().text,
        "deploy with API_KEY = \"[REDACTED:secret-assignment]\" tonight"
    );
    assert_eq!(ws.folder("src").unwrap().description, "API_KEY = \"[REDACTED:secret-assignment]\"");
    let hits = ws.search(&SearchOptions { query: "deploy tonight".into(), ..Default::default() }).unwrap();
    assert_eq!(hits.results.len(), 1);
    assert!(!hits.results[0].summary.contains(&secret), "{:?}", hits.results);
    drop(ws);
    assert!(!db_holds(root, &secret), "the old value is still in the database file");
}

#[test]
fn configured_rules_and_allowed_paths_apply_to_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let token = format!("acme_{}", value(9).to_ascii_lowercase());
    for folder in ["src", "tests/fixtures"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
        std::fs::write(root.join(folder).join("mod.py"), format!("\"\"\"Calls ACME with {token}.\"\"\"\n"))
            .unwrap();
    }
    std::fs::create_dir_all(root.join(".ctx")).unwrap();
    std::fs::write(
        root.join(".ctx/config.toml"),
        "[secrets]\nallow_paths = [\"tests/fixtures/\"]\n\n[[secrets.rules]]\nid = \"acme-token\"\nregex = 'acme_[a-z0-9]{32}'\nkeywords = [\"acme_\"]\n",
    )
    .unwrap();
    let (mut ws, _) = Workspace::init(root).unwrap();
    ws.scan().unwrap();
    let summary = |folder: &str| ws.context(folder, ctxkeep_core::Tier::Deep).unwrap().text;
    assert!(summary("src").contains("Calls ACME with [REDACTED:acme-token]."), "{}", summary("src"));
    assert!(summary("tests/fixtures").contains(&token), "an allowed path keeps its text");
    let report = ws.secrets_scan(None).unwrap();
    assert_eq!(report.files_allowed, 1);
    assert_eq!(report.findings.len(), 1);
    assert_eq!((report.findings[0].path.as_str(), report.findings[0].line), ("src/mod.py", 1));

    // A rule that does not compile is a configuration error naming it.
    std::fs::write(
        root.join(".ctx/config.toml"),
        "[[secrets.rules]]\nid = \"bad\"\nregex = '('\nkeywords = [\"x\"]\n",
    )
    .unwrap();
    let err = Workspace::open(root).unwrap_err();
    assert_eq!(err.code(), "CONFIG_ERROR");
    assert!(err.to_string().contains("rule bad"), "{err}");
}
