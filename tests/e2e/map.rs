//! `ctx map` and `ctx rank` from the command line, in a folder without `.ctx/`.

use crate::util::Repo;

const TREE: &str = r#"
//- Cargo.toml
[package]
name = "pool"
//- src/lib.rs
//! A connection pool.
mod pool;
pub use pool::ConnectionPool;
//- src/pool.rs
pub struct ConnectionPool { size: usize }
impl ConnectionPool {
    pub fn acquire_timeout(&self) -> u64 { helper() }
}
fn helper() -> u64 { 3 }
//- src/metrics.rs
pub fn record_latency(ms: u64) {}
"#;

/// `ctx` in `repo` with its cache in `cache` (never the user's).
fn ctx(repo: &Repo, cache: &tempfile::TempDir, args: &[&str]) -> std::process::Output {
    let mut cmd = repo.cmd(args);
    cmd.env("CTX_CACHE_DIR", cache.path());
    cmd.output().unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn map_works_without_init_and_writes_only_when_told() {
    let repo = Repo::with_files(TREE);
    let cache = tempfile::tempdir().unwrap();
    let text = stdout(&ctx(&repo, &cache, &["map", "--tokens", "400"]));
    assert!(text.starts_with("# Repository map\n"), "{text}");
    assert!(text.contains("Stack: Rust (Cargo.toml)") && text.contains("- test: `cargo test`"), "{text}");
    assert!(text.contains("src/pool.rs:\n") && text.contains("pub struct ConnectionPool"), "{text}");
    assert!(!repo.path(".ctx").exists(), "nothing written into the repository");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctx(&repo, &cache, &["map", "--format", "json"]))).unwrap();
    assert_eq!(json["index"]["parsed"], 0, "the second run parses nothing");
    assert!(json["tokens"].as_u64().unwrap() <= 1500);
    stdout(&ctx(&repo, &cache, &["map", "--write"]));
    assert!(std::fs::read_to_string(repo.path(".ctx/map.md")).unwrap().starts_with("# Repository map"));
    let out = ctx(&repo, &cache, &["map", "--tokens", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let out = ctx(&repo, &cache, &["map", "--focus", "src/nope.rs"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("src/nope.rs"));
}

#[test]
fn the_overview_opens_with_what_the_declared_entry_exports() {
    // fastify's shape: package.json's `main` is `server.js`, whose `createServer` no
    // file of the package uses; its helpers every file does.
    let mut tree = String::from(
        "//- package.json\n{\"name\": \"srv\", \"main\": \"server.js\"}\n\
         //- server.js\nconst { route } = require('./lib/route')\n\
         function createServer (options) {\n  return route(options)\n}\nmodule.exports = createServer\n\
         //- lib/route.js\nconst { check } = require('./check')\nfunction route (o) {\n  return check(o)\n}\nmodule.exports = { route }\n\
         //- lib/check.js\nfunction check (o) {\n  return o\n}\nmodule.exports = { check }\n",
    );
    for i in 0..4 {
        tree.push_str(&format!(
            "//- lib/use{i}.js\nconst {{ check }} = require('./check')\nfunction use{i} (o) {{\n  return check(o)\n}}\nmodule.exports = {{ use{i} }}\n"
        ));
    }
    let repo = Repo::with_files(&tree);
    let cache = tempfile::tempdir().unwrap();
    let text = stdout(&ctx(&repo, &cache, &["map"]));
    let symbols = &text[text.find("## Symbols").unwrap()..];
    let at = |s: &str| symbols.find(s).unwrap_or_else(|| panic!("{s} not in:\n{text}"));
    assert!(at("function createServer (options)") < at("function check (o)"), "{text}");
}

#[test]
fn a_budget_too_small_for_any_code_says_so() {
    let repo = Repo::with_files(TREE);
    let cache = tempfile::tempdir().unwrap();
    for tokens in ["1", "10", "20"] {
        let out = ctx(&repo, &cache, &["map", "--tokens", tokens]);
        let text = stdout(&out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!text.contains("src/pool.rs:"), "{tokens}: {text}");
        assert!(
            stderr.contains(&format!("a budget of {tokens} token")) && stderr.contains("too small"),
            "{tokens}: {stderr}"
        );
    }
    // Where code fits, no such warning.
    let out = ctx(&repo, &cache, &["map", "--tokens", "400"]);
    assert!(stdout(&out).contains("src/pool.rs:"));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("too small"));
    // Nor where the code defines nothing to show, whatever the budget.
    let scripts = Repo::with_files("//- run.py\nprint(\"hi\")\n");
    let out = ctx(&scripts, &cache, &["map", "--tokens", "2000"]);
    stdout(&out);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("too small"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_file_a_tool_wrote_says_so_and_yields_to_what_writes_it() {
    // fastify's shape: `lib/config-validator.js` is written by `build/build-validation.js`.
    let tree = "//- package.json\n{\"name\": \"srv\", \"main\": \"server.js\"}\n\
         //- server.js\nconst validate = require('./lib/config-validator')\n\
         function createServer (options) {\n  return validate(options)\n}\nmodule.exports = createServer\n\
         //- lib/config-validator.js\n// This file is autogenerated by build/build-validation.js, do not edit\n\
         function validate10 (data) {\n  return data.keepAliveTimeout > 0\n}\nmodule.exports = validate10\n\
         //- build/build-validation.js\nconst schema = { keepAliveTimeout: 'integer' }\n\
         function buildValidator (out) {\n  return schema\n}\nmodule.exports = buildValidator\n\
         //- lib/hooks.js\nfunction runHooks (hooks) {\n  return hooks\n}\nmodule.exports = runHooks\n\
         //- lib/route.js\nconst validate = require('./config-validator')\nconst runHooks = require('./hooks')\n\
         function route (options) {\n  return runHooks(validate(options))\n}\nmodule.exports = route\n";
    let repo = Repo::with_files(tree);
    let cache = tempfile::tempdir().unwrap();
    // Twice: the notice is kept with the cached tags, not only where the file was parsed.
    for _ in 0..2 {
        // The task names what the generated file defines: it and the script that writes it lead.
        let task = "validate10 rejects a zero keepAliveTimeout";
        let ranked = stdout(&ctx(&repo, &cache, &["rank", "--query", task, "-k", "2"]));
        let mut first: Vec<&str> = ranked.lines().collect();
        first.sort_unstable();
        assert_eq!(first, ["build/build-validation.js", "lib/config-validator.js"], "{ranked}");
        // Its words alone, not its name: the script comes before it.
        let ranked = stdout(&ctx(&repo, &cache, &["rank", "--query", "reject a zero keep alive timeout"]));
        let at = |path: &str| ranked.lines().position(|l| l == path).unwrap();
        assert!(at("build/build-validation.js") < at("lib/config-validator.js"), "{ranked}");
        // Shown, it says that a tool wrote it, in the text and in the JSON.
        let map =
            stdout(&ctx(&repo, &cache, &["map", "--focus", "lib/config-validator.js", "--tokens", "400"]));
        assert!(map.contains("lib/config-validator.js: (generated)\n"), "{map}");
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&ctx(&repo, &cache, &["map", "--format", "json"]))).unwrap();
        let files = json["files"].as_array().unwrap();
        let generated: Vec<&str> =
            files.iter().filter(|f| f["generated"] == true).map(|f| f["path"].as_str().unwrap()).collect();
        assert_eq!(generated, ["lib/config-validator.js"], "{json}");
        // With no task, it comes after code written by hand that fewer files use.
        let at = |path: &str| files.iter().position(|f| f["path"] == path).unwrap();
        assert!(at("lib/hooks.js") < at("lib/config-validator.js"), "{json}");
    }
}

#[test]
fn rank_puts_the_file_a_task_names_first() {
    let repo = Repo::with_files(TREE);
    let cache = tempfile::tempdir().unwrap();
    let out = stdout(&ctx(
        &repo,
        &cache,
        &["rank", "--query", "acquire times out when the pool is full", "-k", "2"],
    ));
    let paths: Vec<&str> = out.lines().collect();
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0], "src/pool.rs", "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", "latency metrics"])))
            .unwrap();
    assert_eq!(json[0]["path"], "src/metrics.rs");
    assert_eq!(json.as_array().unwrap().len(), 3, "every source file is ranked");
    assert_eq!(ctx(&repo, &cache, &["rank"]).status.code(), Some(2), "a query is required");
    // A task pasted from a changelog or an issue may start with a bullet.
    let bullet = stdout(&ctx(&repo, &cache, &["rank", "--query", "- acquire times out", "-k", "1"]));
    assert_eq!(bullet, "src/pool.rs\n");
    let map = stdout(&ctx(&repo, &cache, &["map", "--query", "- acquire_timeout", "--tokens", "300"]));
    assert!(map.contains("acquire_timeout"), "{map}");
    assert_eq!(ctx(&repo, &cache, &["rank", "--query", "  "]).status.code(), Some(1));
}

#[test]
fn rank_lists_twenty_files_unless_asked_for_more() {
    let tree: String = (0..25).map(|i| format!("//- src/part_{i}.rs\npub fn part_{i}() {{}}\n")).collect();
    let repo = Repo::with_files(&tree);
    let cache = tempfile::tempdir().unwrap();
    let out = ctx(&repo, &cache, &["rank", "--query", "part_7 is slow"]);
    let listed = stdout(&out);
    assert_eq!(listed.lines().count(), 20, "{listed}");
    assert_eq!(listed.lines().next(), Some("src/part_7.rs"));
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(note.contains("5 more files rank lower"), "{note}");
    assert_eq!(stdout(&ctx(&repo, &cache, &["rank", "--query", "part_7", "--all"])).lines().count(), 25);
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", "part_7"]))).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 20);
    // Quiet, nothing but the list.
    assert!(ctx(&repo, &cache, &["-q", "rank", "--query", "part_7"]).stderr.is_empty());
}

#[test]
fn rank_says_which_file_the_task_gives_by_path_and_which_defines_what_it_writes_as_code() {
    let repo = Repo::with_files(TREE);
    let cache = tempfile::tempdir().unwrap();
    let signals = |query: &str| -> Vec<(String, f64, f64)> {
        let out = stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", query]));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let files = json.as_array().unwrap().iter();
        let signal = |f: &serde_json::Value, name: &str| f[name].as_f64().unwrap();
        files
            .map(|f| (f["path"].as_str().unwrap().into(), signal(f, "mentioned"), signal(f, "defines")))
            .collect()
    };
    // A pasted commit body gives the path; its words are all another file's.
    let ranked =
        signals("chore: fix a typo\n\nThe comment of `src/lib.rs` said latency metrics record latency.");
    assert_eq!(ranked[0], ("src/lib.rs".into(), 1.0, 0.0), "{ranked:?}");
    assert!(ranked[1..].iter().all(|(_, mentioned, _)| *mentioned == 0.0), "{ranked:?}");
    // `ConnectionPool` is written as code: the file defining it, not the one re-exporting it.
    let ranked = signals("ConnectionPool leaks");
    assert_eq!(ranked[0], ("src/pool.rs".into(), 0.0, 1.0), "{ranked:?}");
    assert!(ranked[1..].iter().all(|(_, _, defines)| *defines == 0.0), "{ranked:?}");
}

#[test]
fn rank_reads_the_words_of_a_changed_file_again_and_only_its() {
    let repo = Repo::with_files(TREE);
    let cache = tempfile::tempdir().unwrap();
    let top = |query: &str| stdout(&ctx(&repo, &cache, &["rank", "--query", query, "-k", "1"]));
    assert_eq!(top("record latency"), "src/metrics.rs\n");
    assert_eq!(top("acquire timeout"), "src/pool.rs\n");
    // Its words are stored by content: a new content is read, the others are not.
    repo.write("src/metrics.rs", "pub fn record(ms: u64) {}\n// quasar flux, the acquire timeout's cousin\n");
    assert_eq!(top("quasar flux"), "src/metrics.rs\n");
    assert_eq!(top("record latency"), "src/metrics.rs\n", "by its name still, and by no other word");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", "latency"])))
            .unwrap();
    assert!(json.as_array().unwrap().iter().all(|f| f["lexical"] == 0.0), "no file says latency now: {json}");
}

/// A git repository with `{dir}a.py` committed, then `{dir}b.py`: two files
/// whose code says nothing of a task about a frobnicator.
fn two_commits(dir: &str) -> Repo {
    let repo = Repo::with_files(&format!(
        "//- {dir}a.py\ndef alpha():\n    pass\n//- {dir}b.py\ndef beta():\n    pass\n"
    ));
    repo.git(&["init", "--quiet"]);
    repo.git(&["add", &format!("{dir}a.py")]);
    repo.git(&["commit", "--quiet", "-m", "Start"]);
    repo.git(&["add", &format!("{dir}b.py")]);
    repo.git(&["commit", "--quiet", "-m", "Retry the frobnicator when the upstream times out"]);
    repo
}

#[test]
fn rank_puts_recently_changed_files_first_among_equals() {
    let repo = two_commits("");
    let cache = tempfile::tempdir().unwrap();
    let query = "frobnicator retries time out again";
    let ranked = stdout(&ctx(&repo, &cache, &["rank", "--query", query]));
    assert_eq!(ranked.lines().collect::<Vec<_>>(), ["b.py", "a.py"], "history ignored");
    // A file the task names still beats a recent one.
    let named = stdout(&ctx(&repo, &cache, &["rank", "--query", "the alpha module"]));
    assert_eq!(named.lines().next(), Some("a.py"), "{named}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", query]))).unwrap();
    assert!(json[0]["recency"].as_f64().unwrap() > 0.0, "{json}");
    // Without history both files score nothing, and paths break the tie.
    let plain = stdout(&ctx(&repo, &cache, &["rank", "--no-history", "--query", query]));
    assert_eq!(plain.lines().collect::<Vec<_>>(), ["a.py", "b.py"]);
}

#[test]
fn rank_lifts_the_files_of_whoever_asks() {
    let repo = Repo::with_files("//- a.py\ndef alpha():\n    pass\n//- b.py\ndef beta():\n    pass\n");
    repo.git(&["init", "--quiet"]);
    repo.git(&["add", "a.py"]);
    repo.git(&["commit", "--quiet", "--author", "Ann <Ann@Example.org>", "-m", "Start"]);
    repo.git(&["add", "b.py"]);
    repo.git(&["commit", "--quiet", "-m", "More"]);
    let cache = tempfile::tempdir().unwrap();
    let ranked = |email: &str| -> Vec<(String, f64, f64)> {
        repo.git(&["config", "user.email", email]);
        let out = stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", "make it faster"]));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let files = json.as_array().unwrap().iter();
        files
            .map(|f| {
                let signal = |name: &str| f[name].as_f64().unwrap();
                (f["path"].as_str().unwrap().to_string(), signal("authored"), signal("latest"))
            })
            .collect()
    };
    // Nothing in the files answers the task: Ann's own work comes first for
    // Ann (emails compared without case), the newest commit's for anyone else.
    assert_eq!(ranked("ann@example.org"), [("a.py".into(), 1.0, 0.0), ("b.py".into(), 0.0, 1.0)]);
    assert_eq!(ranked("carol@example.org"), [("b.py".into(), 0.0, 1.0), ("a.py".into(), 0.0, 0.0)]);
}

#[test]
fn rank_reads_the_history_again_when_head_moves() {
    let repo = two_commits("");
    let cache = tempfile::tempdir().unwrap();
    let query = "the cache of parsed widgets is stale";
    let similar = |path: &str| -> f64 {
        let out = stdout(&ctx(&repo, &cache, &["--json", "rank", "--query", query]));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let file = json.as_array().unwrap().iter().find(|f| f["path"] == path).unwrap();
        file["similar"].as_f64().unwrap()
    };
    // No past commit reads like the task yet (and the history is now cached under HEAD).
    assert_eq!(similar("a.py"), 0.0);
    repo.write("a.py", "def alpha():\n    return 1\n");
    repo.git(&["commit", "--quiet", "-am", "Drop stale parsed widgets from the cache"]);
    // A new HEAD: the cached history is stale and read again, with the new commit.
    assert_eq!(similar("a.py"), 1.0);
    assert_eq!(similar("b.py"), 0.0);
}

#[test]
fn rank_in_a_subfolder_of_a_repository_reads_its_history_with_its_own_paths() {
    let repo = two_commits("pkg/");
    let cache = tempfile::tempdir().unwrap();
    let pkg = repo.path("pkg");
    let pkg = pkg.to_str().unwrap();
    let ranked = stdout(&ctx(&repo, &cache, &["--root", pkg, "rank", "--query", "frobnicator"]));
    assert_eq!(ranked.lines().collect::<Vec<_>>(), ["b.py", "a.py"]);
}
