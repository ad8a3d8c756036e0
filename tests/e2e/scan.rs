//! `ctx scan`: what is walked, what changes, what goes stale. `init --no-agents`
//! here: the counts are of the fixtures alone (agents.rs has the agent files).

use std::time::{Duration, SystemTime};

use crate::util::{Repo, file_names, strings};

const TREE: &str = "
//- .gitignore
target/
*.log
//- src/auth/jwt.rs
pub fn sign() {}
//- src/auth/hooks/use_auth.ts
export function useAuth() {}
//- src/db/pool.rs
pub struct Pool;
//- src/lib.rs
mod auth;
//- docs/guide.md
# Guide
//- README.md
# Project
";

#[test]
fn cold_scan_records_every_folder_and_file() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-scan", "--no-agents"]);
    let report = repo.scan();
    assert_eq!(report["files_added"], 7);
    assert_eq!(report["folders_added"], 5, "{report}");
    assert_eq!(
        strings(&report["stale_folders"]),
        [".", "docs", "src", "src/auth", "src/auth/hooks", "src/db"]
    );
    let status = repo.json(&["status"]);
    assert_eq!(status["files"], 7);
    assert_eq!(status["folders"], 6);
    assert!(status["last_scan_at"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn gitignore_ignore_ctxignore_and_config_excludes_are_honoured() {
    let repo = Repo::with_files(TREE);
    repo.write("target/debug/out.rs", "fn generated() {}");
    repo.write("app.log", "log line");
    repo.write(".ignore", "scratch/\n");
    repo.write("scratch/notes.md", "notes");
    repo.write(".ctxignore", "*.tmp\n");
    repo.write("src/cache.tmp", "tmp");
    repo.write("vendor/lib/dep.rs", "fn dep() {}");
    // A nested .gitignore applies below its folder only, and `!` re-includes.
    repo.write("src/auth/.gitignore", "*.gen.rs\n!keep.gen.rs\n");
    repo.write("src/auth/token.gen.rs", "// generated");
    repo.write("src/auth/keep.gen.rs", "// generated, kept");
    repo.write("src/db/schema.gen.rs", "// not ignored here");
    std::fs::create_dir_all(repo.path(".ctx")).unwrap();
    repo.write(".ctx/config.toml", "[scan]\nexclude = [\"vendor/**\"]\n");
    repo.ok(&["init", "--no-agents"]);

    let root = repo.json(&["folder", "show", "."]);
    let children = strings(&root["children"]);
    for hidden in ["target", "scratch", "vendor", ".git", ".ctx"] {
        assert!(!children.contains(&hidden.to_string()), "{hidden} should not be scanned: {children:?}");
    }
    assert!(!file_names(&root).contains(&"app.log".to_string()));
    assert!(!file_names(&repo.json(&["folder", "show", "src"])).contains(&"cache.tmp".to_string()));
    let auth = file_names(&repo.json(&["folder", "show", "src/auth"]));
    assert!(!auth.contains(&"token.gen.rs".to_string()) && auth.contains(&"keep.gen.rs".to_string()));
    assert!(file_names(&repo.json(&["folder", "show", "src/db"])).contains(&"schema.gen.rs".to_string()));
    // The ignore files themselves are ordinary files of the repository.
    assert!(file_names(&root).contains(&".gitignore".to_string()));
}

#[test]
fn a_changed_file_marks_exactly_its_folder_and_ancestors_stale() {
    let repo = Repo::init_without_agents(TREE);
    repo.clear_stale();
    repo.write("src/auth/jwt.rs", "pub fn sign() { /* v2 */ }");
    let report = repo.scan();
    assert_eq!(report["files_changed"], 1);
    assert_eq!(report["files_unchanged"], 6);
    assert_eq!(strings(&report["stale_folders"]), [".", "src", "src/auth"]);
    // Siblings (src/db), children (src/auth/hooks) and unrelated folders (docs) stay fresh.
    assert_eq!(repo.stale(), [".", "src", "src/auth"]);
}

#[test]
fn touching_a_file_without_changing_it_marks_nothing() {
    let repo = Repo::init_without_agents(TREE);
    repo.clear_stale();
    let later = SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(repo.path("src/db/pool.rs"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    let report = repo.scan();
    assert_eq!(report["files_changed"], 0);
    assert!(repo.stale().is_empty(), "{:?}", repo.stale());
}

/// Set back by a minute the mtime of every file of `dir` outside `.ctx/`.
fn age_files(dir: &std::path::Path) {
    let minute_ago = SystemTime::now() - Duration::from_secs(60);
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() && entry.file_name() != ".ctx" {
            age_files(&path);
        } else if path.is_file() {
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(minute_ago).unwrap();
        }
    }
}

#[test]
fn a_map_or_rank_of_the_tree_as_stored_writes_nothing() {
    let repo = Repo::init_without_agents(TREE);
    // Files written within a second of the scan that stored them are read
    // again ("racily clean"): these are older.
    age_files(repo.root());
    repo.ok(&["map", "--query", "pool size"]);
    let (before, at) = (db_bytes(&repo), repo.json(&["status"])["last_scan_at"].clone());
    repo.ok(&["map", "--query", "the pool's size"]);
    repo.ok(&["rank", "--query", "auth hooks"]);
    assert!(db_bytes(&repo) == before, "scanning an unchanged tree wrote to the store");
    // The last scan that changed what the store knows.
    assert_eq!(repo.json(&["status"])["last_scan_at"], at);
    // An edit is news, kept.
    repo.write("src/db/pool.rs", "pub struct Pool { size: usize }\n");
    repo.ok(&["map", "--query", "pool size"]);
    assert!(db_bytes(&repo) != before);
}

#[test]
fn a_same_size_rewrite_right_after_a_scan_is_still_seen() {
    // "Racily clean": the rewrite keeps size and mtime, so only the content can tell.
    let repo = Repo::init_without_agents(TREE);
    let path = repo.path("src/db/pool.rs");
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, "pub struct Lock;\n").unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(mtime).unwrap();
    let report = repo.scan();
    assert_eq!(report["files_changed"], 1, "{report}");
    assert!(strings(&report["stale_folders"]).contains(&"src/db".to_string()));
}

#[test]
fn deleted_files_and_folders_disappear() {
    let repo = Repo::init_without_agents(TREE);
    repo.clear_stale();
    repo.remove("src/lib.rs");
    repo.remove("src/auth/hooks");
    let report = repo.scan();
    assert_eq!(report["files_removed"], 2, "{report}");
    assert_eq!(report["folders_removed"], 1);
    assert_eq!(strings(&report["stale_folders"]), [".", "src", "src/auth"]);
    assert!(!file_names(&repo.json(&["folder", "show", "src"])).contains(&"lib.rs".to_string()));
    assert_eq!(strings(&repo.json(&["folder", "show", "src/auth"])["children"]), Vec::<String>::new());
    let err = repo.fail(&["folder", "show", "src/auth/hooks"]);
    assert!(err.contains("unknown folder"), "{err}");
    assert_eq!(repo.json(&["status"])["files"], 5);

    // A folder left without files is gone too, as it is for git.
    repo.clear_stale();
    repo.remove("src/db/pool.rs");
    let report = repo.scan();
    assert_eq!(report["folders_removed"], 1);
    assert_eq!(strings(&report["stale_folders"]), [".", "src"]);
    assert_eq!(strings(&repo.json(&["folder", "show", "src"])["children"]), ["src/auth"]);
}

#[test]
fn new_folders_mark_their_parent_stale() {
    let repo = Repo::init_without_agents(TREE);
    repo.clear_stale();
    repo.write("src/api/routes.ts", "export const routes = [];");
    let report = repo.scan();
    assert_eq!(report["folders_added"], 1);
    assert_eq!(strings(&report["stale_folders"]), [".", "src", "src/api"]);
}

#[test]
fn secrets_are_flagged_by_name_and_by_content() {
    let repo = Repo::with_files(TREE);
    repo.write(".env", "DATABASE_URL=postgres://u:p@h/db\n");
    // Split so that this test file does not itself look like a secret to ctx.
    let aws = concat!("aws_access_key_id: AKIA", "Q7RZ3MT2VX4PLK9D\n");
    // A token inside a file is redacted, not a reason to hide the file.
    repo.write("config/deploy.yml", aws);
    repo.write("config/keys/server.pem", concat!("-----BEGIN ", "PRIVATE KEY-----\nMIIE\n"));
    repo.write("config/keys/ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    repo.write("config/settings.yml", "debug: true\n");
    let out = repo.ok(&["init", "--no-agents"]);
    assert!(out.contains("secrets: 2 files flagged"), "{out}");
    let report = repo.json(&["folder", "show", "config"]);
    let files = report["files"].as_array().unwrap();
    let secret = |name: &str| files.iter().find(|f| f["name"] == name).unwrap()["secret_reason"].clone();
    assert!(secret("deploy.yml").is_null());
    assert!(secret("settings.yml").is_null());
    let keys = repo.json(&["folder", "show", "config/keys"]);
    let key_files = keys["files"].as_array().unwrap();
    let key_secret =
        |name: &str| key_files.iter().find(|f| f["name"] == name).unwrap()["secret_reason"].clone();
    assert_eq!(key_secret("server.pem"), "private key");
    assert!(key_secret("ca.pem").is_null(), "a public certificate is not a secret");
    assert_eq!(
        repo.json(&["folder", "show", "."])["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == ".env")
            .unwrap()["secret_reason"],
        "environment file"
    );
    assert_eq!(repo.json(&["status"])["secret_files"], 2);
}

#[test]
fn binary_and_oversized_files_are_recorded_not_read() {
    let repo = Repo::with_files(TREE);
    std::fs::create_dir_all(repo.path(".ctx")).unwrap();
    repo.write(".ctx/config.toml", "[scan]\nmax_file_bytes = 100\n");
    std::fs::write(repo.path("logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    repo.write("big.txt", &"x".repeat(1000));
    repo.ok(&["init", "--no-agents"]);
    let root = repo.json(&["folder", "show", "."]);
    let kind = |name: &str| {
        root["files"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap()["kind"].clone()
    };
    assert_eq!(kind("logo.png"), "binary");
    assert_eq!(kind("big.txt"), "oversized");
    assert_eq!(kind("README.md"), "text");
    let status = repo.json(&["status"]);
    assert_eq!((status["binary_files"].as_u64(), status["oversized_files"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn unscannable_entries_are_reported_and_skipped() {
    use std::os::unix::ffi::OsStrExt;
    let repo = Repo::with_files(TREE);
    // A name that is not UTF-8, a FIFO (opening it would block), and a symlink loop.
    std::fs::write(repo.root().join(std::ffi::OsStr::from_bytes(b"bad-\xff.txt")), "x").unwrap();
    let fifo = std::ffi::CString::new(repo.path("pipe").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc_mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink(repo.path("src"), repo.path("src/db/loop")).unwrap();
    std::fs::create_dir_all(repo.path(".ctx")).unwrap();
    repo.write(".ctx/config.toml", "[scan]\nfollow_symlinks = true\n");

    let out = repo.run(&["init", "--no-agents"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not valid UTF-8"), "{stderr}");
    assert!(stderr.to_lowercase().contains("loop"), "{stderr}");
    let status = repo.json(&["status"]);
    assert_eq!(status["files"], 7, "only the fixture's files: {status}");
}

unsafe extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}

#[test]
fn a_folder_without_git_still_honours_gitignore() {
    let repo = Repo::with_files(TREE);
    assert!(!repo.path(".git").exists());
    repo.write("target/x.rs", "fn x() {}");
    repo.ok(&["init", "--no-agents"]);
    assert!(!strings(&repo.json(&["folder", "show", "."])["children"]).contains(&"target".to_string()));
}

#[test]
fn two_scans_at_once_both_finish_and_agree() {
    let repo = Repo::new();
    for i in 0..400 {
        repo.write(
            &format!("pkg{}/mod{}/file{i}.py", i % 7, i % 13),
            &format!("def f{i}():\n    return {i}\n"),
        );
    }
    repo.ok(&["init", "--no-scan", "--no-agents"]);
    let children: Vec<_> = (0..2).map(|_| repo.spawn(&["--json", "scan"])).collect();
    let mut added = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        added += report["files_added"].as_u64().unwrap();
    }
    // Each file was added once, by whichever scan got the lock first.
    assert_eq!(added, 400);
    let status = repo.json(&["status"]);
    assert_eq!(status["files"], 400);
    let again = repo.scan();
    assert_eq!(
        (again["files_added"].as_u64(), again["files_changed"].as_u64(), again["files_removed"].as_u64()),
        (Some(0), Some(0), Some(0))
    );
    repo.integrity_ok();
}

#[test]
fn an_unreadable_folder_keeps_what_the_store_knows_of_it() {
    use std::os::unix::fs::PermissionsExt;
    let repo = Repo::init_without_agents(TREE);
    repo.ok(&["folder", "describe", "src/db", "--description", "Connection pool"]);
    repo.ok(&["log", "src/db", "--title", "One pool per process"]);
    let db = repo.path("src/db");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(&db).is_ok() {
        // Privileged (root, CAP_DAC_OVERRIDE): no permission makes a folder unreadable here;
        // the scan unit test `what_the_walk_could_not_read_is_kept_as_it_was` covers the logic.
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: this user reads folders without permission");
        return;
    }
    let report = repo.scan();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(report["files_removed"], 0, "{report}");
    assert!(report["issues"].to_string().contains("src/db"), "{report}");
    let folder = repo.json(&["folder", "show", "src/db"]);
    assert_eq!(folder["description"], "Connection pool");
    assert_eq!(folder["decisions"].as_array().unwrap().len(), 1);
    assert_eq!(file_names(&folder).len(), 1);
}

#[test]
fn edits_during_a_scan_all_land() {
    let repo = Repo::new();
    for i in 0..600 {
        repo.write(&format!("pkg{}/file{i}.py", i % 5), &format!("x = {i}\n"));
    }
    repo.ok(&["init", "--no-scan", "--no-agents"]);
    repo.ok(&["scan"]);
    for i in 0..600 {
        repo.write(&format!("pkg{}/file{i}.py", i % 5), &format!("x = {}\n", i + 1));
    }
    let scan = repo.spawn(&["--json", "scan"]);
    for i in 0..5 {
        repo.ok(&["log", &format!("pkg{i}"), "--title", &format!("Decision {i}")]);
        repo.ok(&["folder", "describe", &format!("pkg{i}"), "--description", &format!("Package {i}")]);
    }
    let out = scan.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["files_changed"], 600);
    assert_eq!(repo.json(&["log", "list"]).as_array().unwrap().len(), 5);
    for i in 0..5 {
        assert_eq!(repo.json(&["folder", "show", &format!("pkg{i}")])["description"], format!("Package {i}"));
    }
    repo.integrity_ok();
}

/// Every byte of the database, its write-ahead log included.
fn db_bytes(repo: &Repo) -> Vec<u8> {
    let mut bytes = std::fs::read(repo.path(".ctx/ctx.db")).unwrap();
    bytes.extend(std::fs::read(repo.path(".ctx/ctx.db-wal")).unwrap_or_default());
    bytes
}

#[test]
fn links_out_of_the_workspace_are_skipped_even_when_links_are_followed() {
    use std::os::unix::fs::symlink;
    const MARKER: &str = "MARKER-7f3a9c-from-outside";
    let outside = tempfile::tempdir().unwrap();
    let leaked = format!("\"\"\"{MARKER}\"\"\"\n\ndef leaked_{}(): pass\n", &MARKER[7..13]);
    std::fs::write(outside.path().join("notes.py"), &leaked).unwrap();
    std::fs::write(outside.path().join("README.md"), format!("# {MARKER}\n\n{MARKER}\n")).unwrap();

    let repo = Repo::with_files(TREE);
    // The repository ships a config that follows links, and links out of itself.
    repo.write(".ctx/config.toml", "[scan]\nfollow_symlinks = true\n");
    symlink(outside.path(), repo.path("docs/home")).unwrap();
    symlink(outside.path().join("notes.py"), repo.path("src/notes.py")).unwrap();
    // Links that stay inside are still followed.
    symlink(repo.path("src/db"), repo.path("db_link")).unwrap();
    symlink(repo.path("README.md"), repo.path("docs/readme_link.md")).unwrap();

    let out = repo.run(&["init", "--no-agents"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = repo.scan();
    let issues: Vec<(String, String)> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["path"].as_str().unwrap().to_string(), i["message"].as_str().unwrap().to_string()))
        .collect();
    let skipped = "links outside the workspace; skipped".to_string();
    assert_eq!(issues, [("docs/home".to_string(), skipped.clone()), ("src/notes.py".to_string(), skipped)]);
    assert!(file_names(&repo.json(&["folder", "show", "db_link"])).contains(&"pool.rs".to_string()));
    assert!(file_names(&repo.json(&["folder", "show", "docs"])).contains(&"readme_link.md".to_string()));

    repo.ok(&["build", "--force"]);
    for (name, text) in repo.context_files() {
        assert!(!text.contains(MARKER), "{name} holds text from outside the workspace");
    }
    let map = repo.ok(&["map", "--tokens", "4000"]);
    assert!(!map.contains(MARKER) && !map.contains("leaked_"), "{map}");
    assert!(map.contains("Pool"), "the map still shows the repository: {map}");
    let db_is_clean = || {
        let db = db_bytes(&repo);
        !db.windows(MARKER.len()).any(|w| w == MARKER.as_bytes())
    };
    assert!(db_is_clean(), "the database holds text from outside");
    assert_eq!(repo.json(&["validate"])["ok"], true);

    // A scanned file replaced by a link out of the workspace is not read either.
    repo.remove("src/db/pool.rs");
    symlink(outside.path().join("notes.py"), repo.path("src/db/pool.rs")).unwrap();
    let map = repo.ok(&["map"]);
    assert!(!map.contains(MARKER) && !map.contains("leaked_"), "{map}");
    let ranked = repo.ok(&["rank", "--query", &format!("{MARKER} leaked pool")]);
    assert!(!ranked.contains("src/db/pool.rs"), "{ranked}");
    assert!(db_is_clean(), "the database holds text from outside");
}

#[test]
fn a_readme_linked_from_inside_the_workspace_describes_its_folder() {
    use std::os::unix::fs::symlink;
    const MARKER: &str = "MARKER-5d1e-from-outside";
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("README.md"), format!("# Out\n\n{MARKER} is here.\n")).unwrap();
    let repo = Repo::with_files(
        "//- core/README.md\n# core\n\nA tiny HTTP router that favours plain functions.\n\
         //- core/src/lib.rs\npub fn route() {}\n",
    );
    // Links are not followed (the default), but a README's link inside the workspace is read.
    symlink("core/README.md", repo.path("README.md")).unwrap();
    symlink(outside.path().join("README.md"), repo.path("core/src/README.md")).unwrap();
    // Old enough that a scan trusts what it recorded (no racy timestamps).
    let touched = std::process::Command::new("touch")
        .args(["-h", "-d", "2020-01-01T00:00:00"])
        .args([repo.path("README.md"), repo.path("core/README.md")])
        .status()
        .unwrap();
    assert!(touched.success());
    repo.ok(&["init", "--no-agents"]);
    let root = repo.ok(&["context", "."]);
    assert!(root.contains("A tiny HTTP router that favours plain functions."), "{root}");
    assert!(!repo.ok(&["context", "core/src"]).contains(MARKER));
    assert!(!file_names(&repo.json(&["folder", "show", "core/src"])).contains(&"README.md".to_string()));
    // Its target edited, the link's summary follows on the next scan.
    repo.write("core/README.md", "# core\n\nA router.\n");
    repo.ok(&["scan"]);
    let root = repo.ok(&["context", "."]);
    assert!(root.contains("A router.") && !root.contains("plain functions"), "{root}");
}
