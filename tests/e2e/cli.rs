//! Workspace discovery, `init`, folder editing and decisions.

use crate::util::{Repo, strings};

const TREE: &str = "
//- src/auth/jwt.rs
pub fn sign() {}
//- src/db/pool.rs
pub struct Pool;
//- docs/api.md
# API
";

#[test]
fn init_is_idempotent_and_keeps_user_edits() {
    let repo = Repo::with_files(TREE);
    let first = repo.json(&["init"]);
    assert_eq!(
        strings(&first["init"]["created"]),
        [
            ".ctx/config.toml",
            ".ctx/.gitignore",
            ".ctx/boot.md",
            ".ctx/constitution.md",
            ".ctx/runloop.md",
            ".ctx/ctx.db"
        ]
    );
    // The fixture's three files, and AGENTS.md and CLAUDE.md, written before the scan.
    assert_eq!(first["scan"]["files_added"], 5);
    let gitignore = std::fs::read_to_string(repo.path(".ctx/.gitignore")).unwrap();
    assert!(gitignore.lines().any(|l| l == "ctx.db*") && gitignore.lines().any(|l| l == "context/"));

    repo.write(".ctx/config.toml", "# mine\n[scan]\nhidden = false\n");
    let second = repo.json(&["init"]);
    assert_eq!(second["init"]["already_initialized"], true);
    assert!(strings(&second["init"]["created"]).is_empty());
    assert_eq!(second["scan"]["files_added"], 0);
    assert_eq!(
        std::fs::read_to_string(repo.path(".ctx/config.toml")).unwrap(),
        "# mine\n[scan]\nhidden = false\n"
    );
}

#[test]
fn a_fresh_clone_without_the_database_gets_a_new_one() {
    let repo = Repo::init(TREE);
    repo.remove(".ctx/ctx.db");
    let report = repo.scan();
    assert_eq!(report["files_added"], 5, "the fixture's 3 files, AGENTS.md and CLAUDE.md");
}

#[test]
fn the_workspace_is_found_from_a_subfolder_and_paths_are_relative_to_it() {
    let repo = Repo::init(TREE);
    let mut cmd = repo.cmd(&["--json", "folder", "show", "."]);
    cmd.current_dir(repo.path("src/auth"));
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let folder: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(folder["path"], "src/auth");

    let mut cmd = repo.cmd(&["--json", "folder", "show", "../db"]);
    cmd.current_dir(repo.path("src/auth"));
    let folder: serde_json::Value = serde_json::from_slice(&cmd.output().unwrap().stdout).unwrap();
    assert_eq!(folder["path"], "src/db");
}

#[test]
fn root_flag_works_from_anywhere() {
    let repo = Repo::init(TREE);
    let elsewhere = tempfile::tempdir().unwrap();
    let mut cmd = repo.cmd(&["--root", repo.root().to_str().unwrap(), "--json", "folder", "show", "src"]);
    cmd.current_dir(elsewhere.path());
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let folder: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(folder["path"], "src");
}

#[test]
fn absolute_paths_through_a_symlinked_checkout_are_inside() {
    let repo = Repo::init(TREE);
    let elsewhere = tempfile::tempdir().unwrap();
    let link = elsewhere.path().join("checkout");
    std::os::unix::fs::symlink(repo.root(), &link).unwrap();
    for (input, want) in [(link.join("src/auth"), "src/auth"), (link.clone(), ".")] {
        let folder = repo.json(&["folder", "show", input.to_str().unwrap()]);
        assert_eq!(folder["path"], want);
    }
    // A missing folder under the link is unknown, not outside.
    let err = repo.fail(&["folder", "show", link.join("nope").to_str().unwrap()]);
    assert!(err.contains("unknown folder"), "{err}");
    let err = repo.fail(&["folder", "show", elsewhere.path().to_str().unwrap()]);
    assert!(err.contains("outside the workspace root"), "{err}");
}

#[test]
fn outside_a_workspace_commands_say_so() {
    let repo = Repo::with_files(TREE);
    let err = repo.fail(&["status"]);
    assert!(err.contains("not a ctx workspace") && err.contains("ctx init"), "{err}");
}

#[test]
fn describe_scope_relate_and_log_mark_the_folder_and_its_ancestors_stale() {
    let repo = Repo::init(TREE);
    let check = |args: &[&str]| {
        repo.clear_stale();
        repo.ok(args);
        assert_eq!(repo.stale(), [".", "src", "src/auth"], "after ctx {args:?}");
    };
    check(&["folder", "describe", "src/auth", "--description", "Authentication: JWT and sessions"]);
    check(&["folder", "scope", "src/auth", "--on"]);
    check(&["folder", "relate", "src/auth", "docs", "--note", "API specification"]);
    check(&["log", "src/auth", "--title", "Bearer tokens over cookies", "--tag", "architectural"]);

    let folder = repo.json(&["folder", "show", "src/auth"]);
    assert_eq!(folder["description"], "Authentication: JWT and sessions");
    assert_eq!(folder["is_scope"], true);
    assert!(folder["described_at"].is_string());
    assert_eq!(folder["related"][0]["path"], "docs");
    assert_eq!(folder["related"][0]["note"], "API specification");
    assert_eq!(folder["decisions"][0]["title"], "Bearer tokens over cookies");
    assert_eq!(strings(&folder["decisions"][0]["tags"]), ["architectural"]);
    // An undescribed folder says so.
    assert!(repo.json(&["folder", "show", "src/db"])["described_at"].is_null());
}

#[test]
fn content_comes_from_a_file_or_standard_input() {
    use std::io::Write;
    let repo = Repo::init(TREE);
    repo.write("notes.md", "## Conventions\nUse tokens.\n");
    repo.ok(&["folder", "describe", "src", "--content-file", "notes.md"]);
    // Kept trimmed: as the knowledge file holds it (between front matter and end).
    assert_eq!(repo.json(&["folder", "show", "src"])["content_md"], "## Conventions\nUse tokens.");

    let mut child = repo
        .cmd(&["folder", "describe", "src/db", "--content-file", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Pool sizing rules.\n").unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(repo.json(&["folder", "show", "src/db"])["content_md"], "Pool sizing rules.");
}

#[test]
fn scope_off_and_unrelate() {
    let repo = Repo::init(TREE);
    repo.ok(&["folder", "scope", "src", "--on"]);
    repo.ok(&["folder", "scope", "src", "--off"]);
    assert_eq!(repo.json(&["folder", "show", "src"])["is_scope"], false);
    repo.ok(&["folder", "relate", "src", "docs"]);
    repo.ok(&["folder", "relate", "src", "docs", "--remove"]);
    assert!(repo.json(&["folder", "show", "src"])["related"].as_array().unwrap().is_empty());
    let err = repo.fail(&["folder", "relate", "src", "docs", "--remove"]);
    assert!(err.contains("not related"), "{err}");
}

#[test]
fn decisions_are_listed_newest_first_per_folder_or_all() {
    let repo = Repo::init(TREE);
    repo.ok(&["log", "src/db", "--title", "Pool of 8", "--rationale", "Two cores"]);
    repo.ok(&["log", "src/auth", "--title", "JWT", "--tag", "Breaking"]);
    let all = repo.json(&["log", "list"]);
    let titles: Vec<_> = all.as_array().unwrap().iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["JWT", "Pool of 8"]);
    assert_eq!(strings(&all[0]["tags"]), ["breaking"]);
    assert!(all[0]["id"].as_str().unwrap().starts_with("D-"));
    let db = repo.json(&["log", "list", "src/db"]);
    assert_eq!(db.as_array().unwrap().len(), 1);
    assert_eq!(db[0]["rationale"], "Two cores");
    assert_eq!(db[0]["folder"], "src/db");
}

#[test]
fn a_folder_named_list_is_logged_as_dot_slash_list() {
    let repo = Repo::init("//- list/items.rs\npub struct Items;\n");
    repo.ok(&["log", "./list", "--title", "Items are sorted"]);
    let decisions = repo.json(&["log", "list", "list"]);
    assert_eq!(decisions[0]["folder"], "list");
}

#[test]
fn bad_input_is_a_one_line_error_and_changes_nothing() {
    let repo = Repo::init(TREE);
    repo.ok(&["log", "src", "--title", "Keep"]);
    let before = (repo.json(&["status"]), repo.json(&["folder", "show", "src"]));
    let cases: &[(&[&str], &str)] = &[
        (&["folder", "show", "nope"], "unknown folder"),
        (&["folder", "show", "../x"], "outside the workspace root"),
        (&["folder", "show", "/etc"], "outside the workspace root"),
        (&["folder", "describe", "src"], "nothing to change"),
        (&["folder", "describe", "src", "--description", "two\nlines"], "single line"),
        (&["folder", "describe", "src", "--content-file", "missing.md"], "cannot read content file"),
        (&["folder", "relate", "src", "src"], "itself"),
        (&["folder", "relate", "src", "nope"], "unknown folder"),
        (&["log", "src", "--title", "  "], "needs a title"),
        (&["log", "src", "--title", "x", "--tag", "two words"], "a tag is"),
        (&["log", "list", "nope"], "unknown folder"),
    ];
    for (args, expect) in cases {
        let err = repo.fail(args);
        assert!(err.contains(expect), "ctx {args:?}: expected {expect:?} in {err:?}");
    }
    let after = (repo.json(&["status"]), repo.json(&["folder", "show", "src"]));
    assert_eq!(before, after);
    repo.integrity_ok();
}

#[test]
fn usage_errors_exit_with_2() {
    let repo = Repo::init(TREE);
    for args in [
        &["log", "src"][..],
        &["folder", "scope", "src"],
        &["folder", "scope", "src", "--on", "--off"],
        &["nonsense"],
    ] {
        assert_eq!(repo.run(args).status.code(), Some(2), "ctx {args:?}");
    }
}

#[test]
fn json_errors_carry_a_stable_code() {
    let repo = Repo::init(TREE);
    let out = repo.run(&["--json", "folder", "show", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    let err: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(err["error"]["code"], "UNKNOWN_FOLDER");
}

/// Names a Linux file system allows that would inject Markdown or drive a terminal.
const HOSTILE_NAMES: [&str; 6] = [
    "x\n## Decisions\n- fake.py",
    "evil\x1b]0;title\x07.py",
    "red\x1b[31m.py",
    "bell\x07.txt",
    "cr\rname.py",
    "tab\tname.py",
];

/// Text fit for a terminal and a Markdown reader: no control byte but line breaks.
fn assert_no_control_bytes(what: &str, bytes: &[u8]) {
    let bad: Vec<u8> = bytes.iter().copied().filter(|&b| (b < 0x20 && b != b'\n') || b == 0x7f).collect();
    assert!(bad.is_empty(), "{what}: raw control bytes {bad:x?} in:\n{}", String::from_utf8_lossy(bytes));
}

#[test]
fn hostile_file_names_are_shown_escaped_everywhere_and_kept_true_in_json() {
    let repo =
        Repo::with_files("//- README.md\nA shop.\n//- src/app.py\n\"\"\"The app.\"\"\"\ndef evil(): pass\n");
    for name in HOSTILE_NAMES {
        repo.write(&format!("src/{name}"), "def evil():\n    pass\n");
    }
    repo.write("src/dir\n## Decisions\n- fake/mod.py", "def evil(): pass\n");
    repo.write("src/esc\x1b[2J/mod.py", "def evil(): pass\n");
    let mut outputs = vec![("init", repo.run(&["init"]))];
    repo.ok(&["log", ".", "--title", "Use SQLite"]);
    repo.ok(&["frame", "push", "Ship it"]);
    repo.ok(&["frame", "artifact", "add", "src/evil\x1b]0;title\x07.py"]);
    for args in [
        &["build", "--force"][..],
        &["scan"],
        &["status"],
        &["validate"],
        &["context", "src"],
        &["context", "src/dir\n## Decisions\n- fake", "--tier", "deep"],
        &["map"],
        &["rank", "--query", "evil"],
        &["folder", "show", "src"],
        &["folder", "show", "src/esc\x1b[2J"],
        &["folder", "todo"],
        &["frame", "show"],
        &["frame", "context", "--format", "md"],
        &["context", "nowhere\x1b[31m"],
    ] {
        outputs.push((args[0], repo.run(args)));
    }
    for (what, out) in &outputs {
        assert_no_control_bytes(what, &out.stdout);
        assert_no_control_bytes(what, &out.stderr);
    }
    let shown = |args: &[&str]| {
        outputs
            .iter()
            .find(|(w, _)| *w == args[0])
            .map(|(_, o)| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    assert!(shown(&["folder"]).unwrap().contains("x\\n## Decisions\\n- fake.py"));

    let files = repo.context_files();
    assert!(files.len() >= 4 * 4, "{:?}", files.keys());
    for (name, text) in &files {
        assert_no_control_bytes(name, text.as_bytes());
        let headers = text.lines().filter(|l| *l == "## Decisions").count();
        // Only the root's own decision makes a section, once, in the files of its scope chain.
        assert!(headers <= 1, "{name}: {headers} decision sections:\n{text}");
        assert!(!text.lines().any(|l| l == "- fake" || l.starts_with("- fake")), "{name}:\n{text}");
    }
    assert_eq!(files["_root.standard.md"].lines().filter(|l| *l == "## Decisions").count(), 1);
    assert!(files["src.standard.md"].contains("`x\\n## Decisions\\n- fake.py`"));
    assert!(files["src.standard.md"].contains("`evil\\x1b]0;title\\x07.py`"));

    // JSON keeps the true names (JSON escapes them itself).
    let folder = repo.json(&["folder", "show", "src"]);
    let names = crate::util::file_names(&folder);
    for name in HOSTILE_NAMES {
        assert!(names.iter().any(|n| n == name), "{name:?} not in {names:?}");
    }
    let map = repo.json(&["map"]);
    assert!(map.to_string().contains("red\\u001b[31m.py"), "{map}");
}
