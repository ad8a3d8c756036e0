//! `ctx build`, `ctx context`, `ctx validate`, `ctx watch`, `ctx folder todo`:
//! the static context files.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use crate::util::{Repo, strings};

const TREE: &str = r#"
//- README.md
# Shop

A small web shop: catalogue, cart and checkout.

More words that are not the first paragraph.
//- src/auth/jwt.rs
//! JWT signing and verification.
pub fn sign() {}
//- src/auth/hooks/use_auth.ts
/** React hook that exposes the signed-in user. */
export function useAuth() {}
//- src/db/pool.rs
pub struct Pool;
//- src/lib.rs
mod auth;
//- docs/guide.md
# Guide
"#;

const FOLDERS: [&str; 6] = [".", "docs", "src", "src/auth", "src/auth/hooks", "src/db"];

fn encoded(folder: &str) -> String {
    if folder == "." { "_root".into() } else { folder.replace('/', "--") }
}

fn names(folders: &[&str]) -> BTreeSet<String> {
    let tiers = ["minimal", "standard", "full", "deep"];
    folders.iter().flat_map(|f| tiers.map(|t| format!("{}.{t}.md", encoded(f)))).collect()
}

#[test]
fn init_builds_the_context_files() {
    let repo = Repo::with_files(TREE);
    let report = repo.json(&["init"]);
    assert_eq!(report["build"]["files_written"], 24, "{report}");
    assert_eq!(repo.context_files().len(), 24);
    assert!(repo.ok(&["init"]).contains("0 files written"), "a second init has nothing to build");
}

#[test]
fn build_writes_four_tiers_for_every_folder_and_a_boot_file() {
    let repo = Repo::init_unbuilt(TREE);
    let report = repo.json(&["build"]);
    assert_eq!(report["files_written"], 24, "{report}");
    let files = repo.context_files();
    assert_eq!(files.keys().cloned().collect::<BTreeSet<_>>(), names(&FOLDERS));
    assert!(repo.path(".ctx/boot.md").exists());

    let auth = &files["src--auth.standard.md"];
    for expected in [
        "# Context: /src/auth",
        "> Tier: standard (at most 2000 tokens, counted with o200k_base)",
        "> Source hash: ",
        "## Scope chain",
        "- **/**: A small web shop: catalogue, cart and checkout.",
        "## Current folder: /src/auth",
        "JWT signing and verification. *(derived from jwt.rs;",
        "- `jwt.rs`: JWT signing and verification.",
        "- `hooks/`: React hook that exposes the signed-in user.",
        "- Parent: /src:",
        "- Siblings (in /src): db",
        "- Children: hooks",
    ] {
        assert!(auth.contains(expected), "missing {expected:?} in:\n{auth}");
    }
    // A second build has nothing to do.
    let again = repo.json(&["build"]);
    assert_eq!((again["files_written"].as_u64(), again["files_unchanged"].as_u64()), (Some(0), Some(24)));
    assert_eq!(repo.context_files(), files);
}

#[test]
fn a_one_file_change_rewrites_exactly_its_folder_and_ancestors() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["build"]);
    let before = repo.context_files();
    repo.write("src/auth/jwt.rs", "//! JWT signing and verification.\npub fn sign() { /* v2 */ }\n");
    repo.scan();
    let report = repo.json(&["build"]);
    let built: Vec<&str> =
        report["built"].as_array().unwrap().iter().map(|b| b["path"].as_str().unwrap()).collect();
    assert_eq!(built, [".", "src", "src/auth"]);
    let after = repo.context_files();
    let rewritten: BTreeSet<String> =
        after.iter().filter(|(name, text)| before.get(*name) != Some(text)).map(|(n, _)| n.clone()).collect();
    assert_eq!(rewritten, names(&[".", "src", "src/auth"]));
    // Siblings, cousins and descendants are untouched, byte for byte.
    for folder in ["docs", "src/db", "src/auth/hooks"] {
        for tier in ["minimal", "standard", "full", "deep"] {
            let name = format!("{}.{tier}.md", encoded(folder));
            assert_eq!(before[&name], after[&name], "{name} changed");
        }
    }
}

#[test]
fn editing_a_description_rebuilds_the_folder_its_ancestors_and_children() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["build"]);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Authentication: JWT and sessions"]);
    let report = repo.json(&["build"]);
    let built: Vec<&str> =
        report["built"].as_array().unwrap().iter().map(|b| b["path"].as_str().unwrap()).collect();
    // The children show their parent's description; the parent lists its children's.
    assert_eq!(built, ["src", "src/auth", "src/auth/hooks"]);
    assert!(repo.context_file("src--auth--hooks.minimal.md").contains("Authentication: JWT and sessions"));
    assert!(repo.json(&["status"])["stale_folders"].as_array().unwrap().is_empty());
}

#[test]
fn decisions_are_windowed_down_the_scope_chain() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["folder", "scope", "src", "--on"]);
    for i in 1..=4 {
        repo.ok(&["log", "src", "--title", &format!("Src decision {i}")]);
    }
    repo.ok(&["log", ".", "--title", "SQLite over Postgres", "--tag", "architectural"]);
    for i in 1..=3 {
        repo.ok(&["log", ".", "--title", &format!("Root note {i}")]);
    }
    for i in 1..=7 {
        repo.ok(&["log", "src/auth/hooks", "--title", &format!("Hook decision {i}"), "--rationale", "why"]);
    }
    repo.ok(&["build"]);
    let hooks = repo.context_file("src--auth--hooks.standard.md");
    // The folder's last five, the scope's last two, the root's last two, and every architectural one.
    for shown in [
        "Hook decision 7",
        "Hook decision 3",
        "Src decision 4",
        "Src decision 3",
        "Root note 3",
        "Root note 2",
        "SQLite over Postgres",
    ] {
        assert!(hooks.contains(shown), "{shown:?} missing:\n{hooks}");
    }
    for hidden in ["Hook decision 2", "Src decision 2", "Root note 1"] {
        assert!(!hooks.contains(hidden), "{hidden:?} shown:\n{hooks}");
    }
    let deep = repo.context_file("src--auth--hooks.deep.md");
    for all in ["Hook decision 1", "Src decision 1", "Root note 1"] {
        assert!(deep.contains(all), "{all:?} missing from deep:\n{deep}");
    }
    // A sibling branch sees the scope's and root's decisions, not the hooks'.
    let db = repo.context_file("src--db.standard.md");
    assert!(
        db.contains("Src decision 4") && db.contains("SQLite over Postgres") && !db.contains("Hook decision")
    );
    assert!(!repo.context_file("src--auth--hooks.minimal.md").contains("Hook decision"));
}

#[test]
fn architectural_and_breaking_decisions_outlast_a_tight_tier() {
    let repo = Repo::init_unbuilt(TREE);
    // `src` is no scope: its decisions reach hooks only when a tag pins them.
    repo.ok(&["log", "src", "--title", "Ordinary src note"]);
    repo.ok(&["log", "src", "--title", "Sessions are stateless", "--tag", "breaking"]);
    // More pinned decisions on the root than the standard tier can hold.
    let long = "because the storage layer must stay embeddable in every deployment we ship".repeat(3);
    for i in 1..=40 {
        repo.ok(&["log", ".", "--title", &format!("Pinned {i} {long}"), "--tag", "architectural"]);
    }
    for i in 1..=5 {
        repo.ok(&["log", "src/auth/hooks", "--title", &format!("Hook decision {i}")]);
    }
    repo.ok(&["build"]);
    let standard = repo.context_file("src--auth--hooks.standard.md");
    assert!(standard.contains("## Left out to fit 2000 tokens"), "nothing was cut:\n{standard}");
    // The folder's own ordinary decisions go before any pinned one does.
    assert!(!standard.contains("Hook decision"), "ordinary decisions outlasted pinned ones:\n{standard}");
    assert!(standard.contains("this folder's 5 decisions"), "{standard}");
    assert!(standard.contains("architectural or breaking decisions"), "{standard}");
    for pinned in ["Sessions are stateless", "Architectural and breaking"] {
        assert!(standard.contains(pinned), "{pinned:?} cut:\n{standard}");
    }
    assert!(!standard.contains("Ordinary src note"), "src is no scope:\n{standard}");
    // The full tier has room for the folder's decisions and pinned ones alike.
    let full = repo.context_file("src--auth--hooks.full.md");
    assert!(full.contains("Hook decision 5") && full.contains("Sessions are stateless"), "{full}");
}

#[test]
fn a_context_file_holds_the_project_boot_related_scopes_and_its_status() {
    let repo = Repo::init_unbuilt(TREE);
    repo.write(".ctx/boot-notes.md", "Always run `make check` before pushing.\n");
    repo.ok(&["folder", "describe", ".", "--content-file", ".ctx/boot-notes.md"]);
    repo.ok(&["folder", "relate", "src/auth", "docs", "--note", "the API guide"]);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sign-in and sessions."]);
    repo.ok(&["build"]);
    let auth = repo.context_file("src--auth.standard.md");
    assert!(auth.contains("Always run `make check` before pushing."), "no project boot:\n{auth}");
    let navigation = auth.split("## Navigation").nth(1).unwrap_or_default();
    assert!(navigation.contains("/docs") && navigation.contains("the API guide"), "{auth}");
    assert!(auth.contains("> Status: current, described\n"), "{auth}");
    let db = repo.context_file("src--db.standard.md");
    assert!(db.contains("> Status: current, undescribed (what it is for is derived from"), "{db}");
    // The boot file tells an agent which file to read.
    let boot = std::fs::read_to_string(repo.path(".ctx/boot.md")).unwrap();
    for says in [".ctx/context/<folder>.standard.md", ".full.md", ".deep.md", "_root", "ctx folder todo"] {
        assert!(boot.contains(says), "boot.md does not say {says:?}:\n{boot}");
    }
}

#[test]
fn each_validate_problem_alone_fails_the_check() {
    type Break = fn(&Repo);
    let problems: [(&str, Break); 5] = [
        ("missing", |repo| std::fs::remove_file(repo.path(".ctx/context/docs.full.md")).unwrap()),
        ("edited", |repo| std::fs::write(repo.path(".ctx/context/src--db.minimal.md"), "mine\n").unwrap()),
        ("stale", |repo| {
            repo.ok(&["log", "src/db", "--title", "Pool size is 8"]);
        }),
        ("orphaned", |repo| std::fs::write(repo.path(".ctx/context/gone.standard.md"), "old\n").unwrap()),
        ("temp_files", |repo| {
            // Left by a build that was killed two hours ago.
            let path = repo.path(".ctx/context/.tmp-4242-7-0123abcd");
            std::fs::write(&path, "half").unwrap();
            let then = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(then).unwrap();
        }),
    ];
    for (kind, break_it) in problems {
        let repo = Repo::init(TREE);
        assert_eq!(repo.json(&["validate"])["ok"], true);
        break_it(&repo);
        let out = repo.run(&["--json", "validate"]);
        assert_eq!(out.status.code(), Some(1), "{kind} alone must fail validate");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(report[kind].as_array().is_some_and(|a| !a.is_empty()), "{kind}: {report}");
        repo.ok(&["build"]);
        let out = repo.run(&["validate"]);
        assert_eq!(out.status.code(), Some(0), "{kind}: a build repairs it");
    }
}

#[test]
fn context_prints_a_file_without_writing_one() {
    let repo = Repo::init_unbuilt(TREE);
    let text = repo.ok(&["context", "src/auth", "--tier", "minimal"]);
    assert!(text.starts_with("# Context: /src/auth\n"), "{text}");
    assert!(!repo.path(".ctx/context").exists());
    let json = repo.json(&["context", "src/auth", "--tier", "full"]);
    assert_eq!(json["tier"], "full");
    assert_eq!(json["file"], "src--auth.full.md");
    assert!(json["tokens"].as_u64().unwrap() <= 5000);
    assert_eq!(json["doc"]["current"]["description_source"], "jwt.rs");
    // Relative to the current directory, like every path argument.
    let mut cmd = repo.cmd(&["context", "."]);
    cmd.current_dir(repo.path("src/db"));
    let out = cmd.output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# Context: /src/db\n"));
    let err = repo.fail(&["context", "nope"]);
    assert!(err.contains("unknown folder"), "{err}");
    let out = repo.run(&["context", ".", "--tier", "huge"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn context_serves_the_built_file_while_it_is_current() {
    let repo = Repo::init(TREE);
    let built = repo.context_file("src--auth.standard.md");
    assert_eq!(repo.ok(&["context", "src/auth"]), built, "current: the file, byte for byte");
    // A file edited by hand is not served: the database is the source of truth.
    std::fs::write(repo.path(".ctx/context/src--auth.standard.md"), "scribbles").unwrap();
    assert!(repo.ok(&["context", "src/auth"]).starts_with("# Context: /src/auth\n"));
    repo.ok(&["build"]);
    // Stale: what the next build would write, not the old file.
    repo.ok(&["folder", "describe", "src/auth", "--description", "Who may do what."]);
    let fresh = repo.ok(&["context", "src/auth"]);
    assert!(fresh.contains("Who may do what."), "{fresh}");
    assert!(!repo.context_file("src--auth.standard.md").contains("Who may do what."));
}

#[test]
fn validate_reports_missing_stale_edited_and_orphaned_files() {
    let repo = Repo::init_unbuilt(TREE);
    let out = repo.run(&["validate"]);
    assert_eq!(out.status.code(), Some(1), "nothing built yet");
    repo.ok(&["build"]);
    let report = repo.json(&["validate"]);
    assert_eq!((report["ok"].as_bool(), report["current"].as_u64()), (Some(true), Some(24)));

    std::fs::remove_file(repo.path(".ctx/context/docs.full.md")).unwrap();
    std::fs::write(repo.path(".ctx/context/src--db.minimal.md"), "hand-written\n").unwrap();
    repo.ok(&["log", "src/auth/hooks", "--title", "Hooks are pure"]);
    repo.remove("docs");
    repo.scan();

    let out = repo.run(&["--json", "validate"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = |kind: &str| -> Vec<String> {
        report[kind]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{} {}", p["path"].as_str().unwrap(), p["tier"].as_str().unwrap()))
            .collect()
    };
    assert_eq!(problems("edited"), ["src/db minimal"]);
    assert!(problems("missing").is_empty(), "docs is gone: its missing file is orphaned, not missing");
    // The decision changed hooks; the root lost docs, and src its sibling docs.
    let stale = problems("stale");
    let stale_folders: BTreeSet<&str> = stale.iter().map(|s| s.split(' ').next().unwrap()).collect();
    assert_eq!(stale_folders, BTreeSet::from([".", "src", "src/auth/hooks"]), "{stale:?}");
    assert_eq!(strings(&report["orphaned"]), ["docs.deep.md", "docs.minimal.md", "docs.standard.md"]);
    let text = repo.run(&["validate"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("edited   src/db") && text.contains("orphaned .ctx/context/docs.deep.md"),
        "{text}"
    );

    let rebuilt = repo.json(&["build"]);
    assert_eq!(strings(&rebuilt["files_removed"]), ["docs.deep.md", "docs.minimal.md", "docs.standard.md"]);
    assert_eq!(repo.json(&["validate"])["ok"], true);
    // A missing file is rewritten too.
    std::fs::remove_file(repo.path(".ctx/context/src.full.md")).unwrap();
    let out = repo.run(&["--json", "validate"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out.status.code(), &report["missing"][0]["path"]), (Some(1), &serde_json::json!("src")));
    let report = repo.json(&["build"]);
    assert_eq!(report["built"][0]["reason"], "missing");
    assert_eq!(repo.json(&["validate"])["ok"], true);
}

#[test]
fn validate_compares_the_stores_files_with_the_disk() {
    let repo = Repo::with_files(&format!("{TREE}//- .gitignore\n*.log\n//- src/debug.log\nnoise\n"));
    repo.ok(&["init"]);
    // What the scan's rules leave out (here: .gitignore'd) is no difference.
    assert_eq!(repo.json(&["validate"])["ok"], true);

    // A store that lost a file, and one holding a file no longer on disk.
    repo.db().execute("DELETE FROM files WHERE path = 'src/db/pool.rs'", []).unwrap();
    repo.remove("src/lib.rs");
    let out = repo.run(&["--json", "validate"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(strings(&report["unscanned_files"]), ["src/db/pool.rs"], "{report}");
    assert_eq!(strings(&report["vanished_files"]), ["src/lib.rs"], "{report}");
    let out = repo.run(&["validate"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("unscanned src/db/pool.rs\n") && text.contains("vanished  src/lib.rs\n"), "{text}");
    assert!(text.contains("1 file not scanned, 1 scanned file gone; run `ctx scan`"), "{text}");

    repo.ok(&["build", "--scan"]);
    assert_eq!(repo.json(&["validate"])["ok"], true);
}

#[test]
fn building_before_any_scan_says_what_to_do() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-scan", "--no-agents"]);
    assert!(repo.fail(&["build"]).contains("nothing scanned yet"));
    let report = repo.json(&["build", "--scan"]);
    assert_eq!(
        (report["scan"]["files_added"].as_u64(), report["build"]["files_written"].as_u64()),
        (Some(6), Some(24))
    );
}

#[test]
fn build_options_limit_what_is_written() {
    let repo = Repo::init_unbuilt(TREE);
    let report = repo.json(&["build", "src/db", "--tier", "minimal"]);
    assert_eq!(report["files_written"], 1);
    assert_eq!(repo.context_files().keys().collect::<Vec<_>>(), ["src--db.minimal.md"]);
    let report = repo.json(&["build", "--stale"]);
    assert_eq!(report["files_written"], 23, "every folder is stale after init: {report}");
    let report = repo.json(&["build", "--force", "--tier", "deep"]);
    assert_eq!(report["files_written"], 6);
    assert!(repo.fail(&["build", "nowhere"]).contains("unknown folder"));
    assert!(repo.fail(&["build", "../outside"]).contains("outside the workspace root"));
    let out = repo.run(&["build", "--stale", "--force"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn template_overrides_apply_and_broken_ones_change_nothing() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["build"]);
    let before = repo.context_files();

    repo.write(".ctx/templates/footer.md.hbs", "---\n*Our footer for {{title}}.*\n");
    let report = repo.json(&["build"]);
    assert_eq!(report["files_written"], 24, "a template change rebuilds everything");
    assert!(repo.context_file("src--db.standard.md").ends_with("*Our footer for /src/db.*\n"));
    let good = repo.context_files();

    // A syntax error: named with its file and line, nothing written.
    repo.write("src/db/pool.rs", "pub struct Pool(u8);\n");
    repo.scan();
    repo.write(".ctx/templates/contents.md.hbs", "{{#if files}}\nfiles\n{{#each files}}\n");
    let err = repo.fail(&["build"]);
    let names_a_line = err.split("line ").skip(1).any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    assert!(err.contains(".ctx/templates/contents.md.hbs") && names_a_line, "{err}");
    assert_eq!(repo.context_files(), good);
    let err = repo.fail(&["context", "src"]);
    assert!(err.contains(".ctx/templates/contents.md.hbs"), "{err}");

    // An error that only shows when rendering: still nothing written.
    repo.write(".ctx/templates/contents.md.hbs", "{{join files}}\n");
    let err = repo.fail(&["build"]);
    assert!(err.contains("contents.md.hbs"), "{err}");
    assert_eq!(repo.context_files(), good);
    let leftovers: Vec<_> = repo.context_files().into_keys().filter(|n| n.starts_with('.')).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // An unknown template name is a typo worth hearing about.
    repo.remove(".ctx/templates/contents.md.hbs");
    repo.write(".ctx/templates/fotter.md.hbs", "x");
    assert!(repo.fail(&["build"]).contains("fotter.md.hbs: no such template"));
    repo.remove(".ctx/templates");
    repo.ok(&["build"]);
    assert_ne!(repo.context_files(), before, "pool.rs changed since");
}

#[test]
fn folder_todo_lists_undescribed_folders_code_first_deepest_first_among_equals() {
    let repo = Repo::init_unbuilt(TREE);
    let todo = repo.json(&["folder", "todo"]);
    let paths: Vec<&str> = todo.as_array().unwrap().iter().map(|t| t["path"].as_str().unwrap()).collect();
    // No file uses another's names: the code's folders weigh the same, deepest first; docs after them.
    assert_eq!(paths, ["src/auth/hooks", "src/auth", "src/db", "src", ".", "docs"]);
    let root = todo.as_array().unwrap().iter().find(|t| t["path"] == ".").unwrap();
    assert_eq!(root["derived_from"], "README.md");
    assert_eq!(root["derived_description"], "A small web shop: catalogue, cart and checkout.");
    let db = todo.as_array().unwrap().iter().find(|t| t["path"] == "src/db").unwrap();
    assert_eq!(
        (db["derived_from"].as_str(), db["derived_description"].as_str()),
        (Some("summary"), Some("1 file (1 Rust)"))
    );
    repo.ok(&["folder", "describe", "src/db", "--description", "Connection pool"]);
    let after = repo.json(&["folder", "todo"]);
    assert!(after.as_array().unwrap().iter().all(|t| t["path"] != "src/db"));
    assert!(repo.ok(&["folder", "todo"]).contains("5 folders to describe"));
}

#[test]
fn secrets_are_listed_by_name_and_never_shown() {
    let repo = Repo::with_files(TREE);
    let secret = concat!("# deploy keys\nAWS_KEY=AKIA", "Q7RZ3MT2VX4PLK9D\n");
    repo.write("config/.env", secret);
    repo.write("config/README.md", concat!("Keys: AKIA", "Q7RZ3MT2VX4PLK9D is ours.\n"));
    repo.ok(&["init"]);
    for (name, text) in repo.context_files() {
        assert!(!text.contains("Q7RZ3MT2VX4PLK9D"), "{name} leaks a secret:\n{text}");
    }
    let config = repo.context_file("config.full.md");
    assert!(config.contains("- `.env`: looks like a secret; content withheld"), "{config}");
}

/// A running `ctx --json watch` and its cycles, one JSON object each.
struct Watch {
    child: std::process::Child,
    cycles: std::sync::mpsc::Receiver<serde_json::Value>,
}

impl Watch {
    fn start(repo: &Repo) -> Watch {
        let mut child = repo.spawn(&["--json", "watch", "--debounce", "100"]);
        let stdout = child.stdout.take().unwrap();
        let (tx, cycles) = std::sync::mpsc::channel::<serde_json::Value>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    break;
                }
            }
        });
        Watch { child, cycles }
    }

    fn next(&self, what: &str) -> serde_json::Value {
        self.cycles
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no cycle for {what} within a minute"))
    }

    /// Cycles until one satisfies `done`.
    fn until(&self, what: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "watch never saw {what}");
            let cycle = self.next(what);
            if done(&cycle) {
                return cycle;
            }
        }
    }

    /// Cycles until one rebuilds `folder` (the file system may report a change in pieces).
    fn until_built(&self, folder: &str) -> (Vec<String>, serde_json::Value) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "watch never rebuilt {folder}");
            let cycle = self.next(folder);
            let built: Vec<String> = cycle["build"]["built"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["path"].as_str().unwrap().to_string())
                .collect();
            if built.iter().any(|b| b == folder) {
                return (built, cycle);
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn watch_rebuilds_after_a_change() {
    let repo = Repo::init_unbuilt(TREE);
    let watch = Watch::start(&repo);
    // The first round builds everything.
    let first = watch.next("the first build");
    assert_eq!(first["build"]["files_written"], 24, "{first}");
    std::thread::sleep(Duration::from_millis(200));
    repo.write("src/db/pool.rs", "pub struct Pool { pub size: usize }\n");
    let (built, cycle) = watch.until_built("src/db");
    assert_eq!(built, [".", "src", "src/db"]);
    assert!(strings(&cycle["changed"]).contains(&"src/db/pool.rs".to_string()), "{cycle}");
    // Its outline was refreshed before the build: the new definition shows at once.
    let db = repo.context_file("src--db.standard.md");
    assert!(db.contains("`pub struct Pool { pub size: usize }`"), "{db}");
    drop(watch);
    assert_eq!(repo.json(&["validate"])["ok"], true);
}

#[test]
fn watch_follows_other_processes_edits_and_template_overrides_and_skips_ignored_paths() {
    let repo = Repo::init_unbuilt(&format!("{TREE}//- .gitignore\ntarget/\n"));
    let watch = Watch::start(&repo);
    watch.next("the first build");
    std::thread::sleep(Duration::from_millis(200));
    // An agent describes a folder from another process: the database changed, no file did.
    repo.ok(&["folder", "describe", "src/db", "--description", "The connection pool."]);
    let (_, cycle) = watch.until_built("src/db");
    assert!(strings(&cycle["changed"]).contains(&".ctx/ctx.db".to_string()), "{cycle}");
    assert!(repo.context_file("src--db.standard.md").contains("The connection pool."));
    // A build artifact (ignored), then a template override: only the override is news.
    repo.write("target/debug/out.txt", "artifact");
    std::thread::sleep(Duration::from_millis(50));
    repo.write(".ctx/templates/footer.md.hbs", "\n-- footer override --\n");
    // Past the cycles the description's knowledge file may still bring (a busy machine
    // reports it late). The new folder `.ctx/templates` may come first; its build
    // already reads the override, unless the folder was seen before the file was
    // written (a loaded machine): then that cycle built nothing, and the file's is next.
    let cycle = watch.until("the template override", |c| {
        strings(&c["changed"]).iter().any(|p| p.starts_with(".ctx/templates"))
            && c["build"]["built"].as_array().is_some_and(|built| !built.is_empty())
    });
    let built = cycle["build"]["built"].as_array().map_or(0, Vec::len);
    assert_eq!(built, FOLDERS.len(), "a template change rebuilds every folder: {cycle}");
    assert!(!strings(&cycle["changed"]).iter().any(|p| p.starts_with("target")), "{cycle}");
    assert!(repo.context_file("src--db.minimal.md").ends_with("-- footer override --\n"));
    // The configuration is reloaded; a broken one is reported and the old one kept.
    repo.write(".ctx/config.toml", "[build]\ntokenizer = \"estimate\"\n");
    let (_, cycle) = watch.until_built("src/db");
    assert_eq!(cycle["build"]["tokenizer"], "estimate", "{cycle}");
    repo.write(".ctx/config.toml", "[build]\ntokenizer = 7\n");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the broken config was never reported");
        let cycle = watch.next("the broken config");
        if let Some(error) = cycle["error"].as_str() {
            assert!(error.contains("config.toml") && error.contains("keeping the previous"), "{error}");
            assert_eq!(cycle["build"]["tokenizer"], "estimate");
            break;
        }
    }
}

#[test]
fn watch_follows_changes_to_the_ignore_rules() {
    let repo = Repo::init_unbuilt(&format!("{TREE}//- .gitignore\ngen/\n"));
    let watch = Watch::start(&repo);
    watch.next("the first build");
    std::thread::sleep(Duration::from_millis(200));
    repo.write(".gitignore", "");
    let cycle =
        watch.until("the new .gitignore", |c| strings(&c["changed"]).contains(&".gitignore".to_string()));
    assert_eq!(cycle["error"], serde_json::Value::Null);
    // gen/ is no longer ignored: a file there is news now.
    repo.write("gen/made.rs", "pub fn made() {}\n");
    let cycle = watch.until("gen/made.rs", |c| c["scan"]["files_added"].as_u64() > Some(0));
    assert!(strings(&cycle["changed"]).iter().any(|p| p.starts_with("gen")), "{cycle}");
}

#[test]
fn undescribed_folders_are_described_by_what_their_authors_wrote() {
    let repo = Repo::init_unbuilt(
        r#"
//- pkg/__init__.py
"""Payment providers: Stripe and PayPal adapters."""
//- pkg/stripe.py
import os
//- crate/Cargo.toml
[package]
name = "engine"
//- crate/src/lib.rs
//! The pricing engine.
pub fn price() {}
//- web/index.ts
/** Web entry point: mounts the app. */
export {}
//- web/other.ts
export const x = 1;
//- docs/README.rst
Docs
====

How to run the shop.
//- data/a.csv
1,2
//- data/b.csv
3,4
//- typed/shapes.py
AREA = 1
//- typed/py.typed
//- tool/pyproject.toml
[project]
name = "tool"
description = "The comprehensive WSGI web application library."
//- tool/README.md
# tool

*tool* German noun: "tool". Etymology: werk ("work").
//- guide/README-ja.md
# ガイド

日本語のガイド。
//- guide/README.md
# Guide

The guide, in English.
//- chain/a/b/one.csv
x
//- chain/a/b/two.csv
y
//- wrap/inner/__init__.py
"""The inner package."""
//- tool/src/tool/__init__.py
from .core import run
//- tool/src/tool/core.py
"""Run the tool's one command."""
def run(): pass
//- mock/Cargo.toml
[package]
name = "mock"
description = "Utilities for testing the engine."
//- mock/src/lib.rs
#![doc = include_str!("../README.md")]
pub mod ancestry;
//- mock/src/ancestry.rs
//! Define the ancestry of an event.
pub fn parent() {}
//- gen/config_validator.js
// This file is autogenerated by build/build-validation.js, do not edit
/* c8 ignore start */
"use strict";
module.exports = validate10;
function validate10(data) { return true }
//- gen/route.js
function route(options) { return options }
//- term/src/event.rs
//! Read keyboard, mouse and resize events.
mod filter;
mod timeout;
//- term/src/event/timeout.rs
//! Keeps track of the elapsed time since polling started.
pub struct Timeout;
//- term/src/event/filter.rs
//! Which events a reader waits for.
pub struct Filter;
//- leaves/parse.py
"""Parse the input."""
def parse(): pass
//- leaves/render.py
"""Render the output."""
def render(): pass
"#,
    );
    let todo = repo.json(&["folder", "todo"]);
    let derived = |path: &str| {
        let t = todo.as_array().unwrap().iter().find(|t| t["path"] == path).unwrap();
        (
            t["derived_from"].as_str().unwrap().to_string(),
            t["derived_description"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        derived("pkg"),
        ("__init__.py".into(), "Payment providers: Stripe and PayPal adapters.".into())
    );
    assert_eq!(derived("crate"), ("src/lib.rs".into(), "The pricing engine.".into()));
    assert_eq!(derived("web"), ("index.ts".into(), "Web entry point: mounts the app.".into()));
    assert_eq!(derived("docs"), ("README.rst".into(), "How to run the shop.".into()));
    assert_eq!(derived("data"), ("summary".into(), "2 files (2 .csv)".into()));
    // One file of a kind named by its extension is named itself (starlette's `1 .typed`).
    assert_eq!(derived("typed"), ("summary".into(), "2 files (1 Python, py.typed)".into()));
    // A manifest's one-line description before a README's first paragraph; a README in
    // no particular language before its translations.
    assert_eq!(
        derived("tool"),
        ("pyproject.toml".into(), "The comprehensive WSGI web application library.".into())
    );
    assert_eq!(derived("guide"), ("README.md".into(), "The guide, in English.".into()));
    // A project's top package or a crate's `src/` without docs of their own are what
    // the manifest says the project is, not what their first module says of itself.
    assert_eq!(
        derived("tool/src/tool"),
        ("../../pyproject.toml".into(), "The comprehensive WSGI web application library.".into())
    );
    assert_eq!(derived("mock/src"), ("../Cargo.toml".into(), "Utilities for testing the engine.".into()));
    // A folder that only holds another is what that one is (`src/` of a src layout).
    assert_eq!(derived("wrap"), ("summary".into(), "Holds `inner/`: The inner package.".into()));
    // A chain of them is one path, said once (yarl's `.github/reusables/tox-dev/workflow/…`).
    assert_eq!(derived("chain"), ("summary".into(), "Holds `a/b/`: 2 files (2 .csv)".into()));
    // A generated file's banner says what that file is, not what its folder is for
    // (fastify's `lib/` read "This file is autogenerated …, do not edit").
    assert_eq!(derived("gen"), ("summary".into(), "2 files (2 JavaScript)".into()));
    let generated = repo.ok(&["context", "gen", "--tier", "standard"]);
    assert!(generated.contains("- `config_validator.js`: This file is autogenerated by"), "{generated}");
    // A Rust module's folder is what the module's file beside it says, not one of its files.
    assert_eq!(
        derived("term/src/event"),
        ("../event.rs".into(), "Read keyboard, mouse and resize events.".into())
    );
    // Of files no other uses, none speaks for the folder.
    assert_eq!(derived("leaves"), ("summary".into(), "2 files (2 Python)".into()));
    // What a person writes wins.
    repo.ok(&["folder", "describe", "pkg", "--description", "Payments"]);
    let text = repo.ok(&["context", "pkg", "--tier", "minimal"]);
    assert!(text.contains("\nPayments\n") && !text.contains("derived from"), "{text}");
}

#[test]
fn a_folder_among_many_siblings_names_the_nearest_forty() {
    let repo = Repo::new();
    for i in 0..60 {
        repo.write(&format!("pkgs/p{i:02}/mod.py"), "x = 1\n");
    }
    repo.ok(&["init", "--no-build"]);
    let doc = repo.json(&["context", "pkgs/p30", "--format", "json"])["doc"]["navigation"].clone();
    let siblings = strings(&doc["siblings"]);
    assert_eq!((siblings.len(), doc["siblings_unlisted"].as_u64()), (40, Some(19)));
    assert_eq!((siblings[0].as_str(), siblings[39].as_str()), ("p10", "p50"), "a window around p30");
    assert!(!siblings.contains(&"p30".to_string()));
    let text = repo.ok(&["context", "pkgs/p30"]);
    assert!(text.contains("p49, p50 and 19 more"), "{text}");
}

#[test]
fn a_crowded_root_s_minimal_tier_keeps_its_commands_before_its_subfolders_names() {
    // tracing's root: 21 crates, and what SessionStart injects had dropped the
    // build and test commands while naming every crate twice.
    let repo = Repo::new();
    repo.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    for i in 0..24 {
        let name = format!("tracing-part-number-{i:02}");
        repo.write(&format!("{name}/Cargo.toml"), &format!("[package]\nname = \"{name}\"\n"));
        repo.write(&format!("{name}/src/lib.rs"), "//! A part.\npub fn part() {}\n");
    }
    repo.ok(&["init"]);
    let minimal = std::fs::read_to_string(repo.path(".ctx/context/_root.minimal.md")).unwrap();
    assert!(minimal.contains("Commands:\n- build: `cargo build"), "{minimal}");
    assert!(minimal.contains("- `tracing-part-number-00/`"), "{minimal}");
    // The subfolders' names are not listed again, and no heading stands over nothing.
    assert!(!minimal.contains("- Children:"), "{minimal}");
    assert!(
        !minimal.contains("## Navigation\n\n\n") && !minimal.contains("## Navigation\n\n##"),
        "{minimal}"
    );
}

/// Wait for every child, insisting each succeeded.
fn wait_all(children: Vec<std::process::Child>) {
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn concurrent_builds_leave_every_record_true_to_its_file() {
    let repo = Repo::init(TREE);
    // Each forced build writes every file (with its own time) and records its hashes:
    // interleaved, a record would describe another build's bytes.
    wait_all((0..4).map(|_| repo.spawn(&["build", "--force"])).collect());
    let report = repo.json(&["validate"]);
    assert_eq!(report["ok"], true, "{report}");
    assert!(!repo.context_files().keys().any(|name| name.starts_with(".tmp-")));
}

#[test]
fn an_edit_during_a_build_is_in_the_files_or_still_flagged_stale() {
    let repo = Repo::init(TREE);
    for round in 0..3 {
        let description = format!("Round {round} of describing.");
        let build = repo.spawn(&["build", "--force"]);
        repo.ok(&["folder", "describe", "src/db", "--description", &description]);
        wait_all(vec![build]);
        // Either the build read the edit, or the edit's stale flag survived it.
        let built = repo.context_file("src--db.standard.md").contains(&description);
        assert!(built || repo.stale().contains(&"src/db".to_string()), "round {round}: the edit was lost");
        repo.ok(&["build"]);
    }
}

#[test]
fn a_build_removes_what_an_interrupted_build_left_and_not_what_a_running_one_writes() {
    let repo = Repo::init(TREE);
    // Left by a process that is gone (no such pid), just now; and one of a
    // running process (this test's), as a build renders outside the write
    // lock: another build's, not yet renamed.
    let left = repo.path(".ctx/context/.tmp-3999999-0-deadbeef");
    let running = repo.path(&format!(".ctx/context/.tmp-{}-0-cafef00d", std::process::id()));
    std::fs::write(&left, "half a file").unwrap();
    std::fs::write(&running, "being written").unwrap();
    // Validate names the leftover for what it is, and only that.
    let out = repo.run(&["--json", "validate"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(strings(&report["temp_files"]), [".tmp-3999999-0-deadbeef"], "{report}");
    for kind in ["missing", "stale", "edited", "orphaned"] {
        assert_eq!(report[kind], serde_json::json!([]), "{kind}: {report}");
    }
    let text = String::from_utf8(repo.run(&["validate"]).stdout).unwrap();
    assert!(text.contains("leftover .ctx/context/.tmp-3999999-0-deadbeef\n"), "{text}");
    assert!(text.contains("1 leftover temp file; run `ctx build`"), "{text}");
    repo.ok(&["build"]);
    assert!(!left.exists());
    assert!(running.exists());
    std::fs::remove_file(&running).unwrap();
    assert_eq!(repo.json(&["validate"])["ok"], true);
}

#[test]
fn a_tier_named_twice_is_built_once() {
    let repo = Repo::init(TREE);
    let report = repo.json(&["build", "--force", "--tier", "deep", "--tier", "deep"]);
    assert_eq!(report["files_written"], FOLDERS.len());
}

#[test]
fn a_described_scope_rebuilds_its_descendants_without_force() {
    let repo = Repo::init(TREE);
    repo.ok(&["folder", "scope", "src", "--on"]);
    repo.ok(&["build"]);
    repo.ok(&["folder", "describe", "src", "--description", "All the shop's code."]);
    // `--stale` is the default spelled out: the hash decides, so descendants come along.
    let report = repo.json(&["build", "--stale"]);
    let built: BTreeSet<String> =
        report["built"].as_array().unwrap().iter().map(|b| b["path"].as_str().unwrap().to_string()).collect();
    for folder in ["src", "src/auth", "src/auth/hooks", "src/db"] {
        assert!(built.contains(folder), "{folder} not rebuilt: {built:?}");
    }
    assert!(repo.context_file("src--auth--hooks.standard.md").contains("All the shop's code."));
}

/// Long-form content for the snapshot fixture: long enough that the
/// standard tier must cut it.
fn auth_content() -> String {
    let mut text = String::from("## How sign-in works\n\n");
    for step in 1..=80 {
        text.push_str(&format!(
            "{step}. The client posts its credentials; the server checks them against the store, \
             issues a short-lived access token and a refresh token, and records the session.\n"
        ));
    }
    text.push_str(
        "\n## Pitfalls\n\nTokens are signed with the key in `AUTH_KEY`; rotating it signs everyone out.\n",
    );
    text
}

#[test]
fn the_four_tiers_of_one_folder() {
    let repo = Repo::init_unbuilt(TREE);
    repo.write(".ctx/auth.md", &auth_content());
    repo.ok(&["folder", "describe", ".", "--description", "A small web shop."]);
    repo.ok(&["folder", "scope", "src", "--on"]);
    repo.ok(&["folder", "describe", "src", "--description", "The shop's Rust and TypeScript code."]);
    repo.ok(&[
        "folder",
        "describe",
        "src/auth",
        "--description",
        "Authentication: JWT signing, sessions and the React hook.",
        "--content-file",
        ".ctx/auth.md",
    ]);
    repo.ok(&["log", "src", "--title", "One crate per service", "--tag", "architectural"]);
    for n in 1..=7 {
        repo.ok(&[
            "log",
            "src/auth",
            "--title",
            &format!("Decision {n} on tokens"),
            "--rationale",
            &format!("Because of reason {n}, which takes a sentence to explain."),
        ]);
    }
    repo.ok(&["build"]);
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[time]");
    settings.add_filter(r"\d{4}-\d\d-\d\d", "[date]");
    settings.add_filter(r"hash: [0-9a-f]{16}", "hash: [hash]");
    settings.add_filter(r"tree [0-9a-f]{16}", "tree [digest]");
    // The hash's digits tokenize differently from run to run (decisions carry
    // their time), which moves a cut by a few tokens: mask where it falls,
    // and how many of the (identical) steps before it were kept.
    settings.add_filter(r"(?m)^[^\n]* …$", "[cut] …");
    settings.add_filter(r"(?m)^(\d+\. The client posts[^\n]*\n)+", "[steps]\n");
    settings.add_filter(r"after \d+ of (\d+) tokens", "after [n] of $1 tokens");
    settings.bind(|| {
        for tier in ["minimal", "standard", "full", "deep"] {
            let text = repo.context_file(&format!("src--auth.{tier}.md"));
            insta::assert_snapshot!(format!("src_auth_{tier}"), text);
        }
    });
}
