//! Rough edges a new user hit (issue 19, item 6): folder arguments as
//! context files title them, or naming a file; errors that say their cause
//! once; scans nobody reported; counts with their nouns; edits that print
//! what changed; `--quiet` and `--verbose`.

use crate::util::Repo;

const FLASK: &str = "
//- README.md
# demo
A demo app.
//- src/flask/app.py
def create_app():
    return None
//- src/flask/views.py
def index():
    return 'hi'
//- src/util.py
def helper():
    pass
";

/// Stdout and stderr of a successful run.
fn ok_both(repo: &Repo, args: &[&str]) -> (String, String) {
    let out = repo.run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "ctx {args:?} failed: {stderr}");
    (String::from_utf8(out.stdout).expect("utf-8 stdout"), stderr)
}

#[test]
fn a_folder_is_named_as_its_context_file_titles_it() {
    let repo = Repo::init(FLASK);
    let plain = repo.ok(&["context", "src/flask"]);
    assert!(plain.starts_with("# Context: /src/flask\n"), "{plain}");
    // The title's spelling: a leading `/` is the workspace root.
    assert_eq!(repo.ok(&["context", "/src/flask"]), plain);
    assert_eq!(repo.json(&["folder", "show", "/src/flask"])["path"], "src/flask");
    assert_eq!(repo.json(&["folder", "show", "/"])["path"], ".");
    // A real absolute path inside the root is still that path.
    let real = repo.root().canonicalize().unwrap().join("src/flask");
    assert_eq!(repo.ok(&["context", real.to_str().unwrap()]), plain);
    // An absolute path that exists outside the root, and not inside it, is outside.
    let outside = tempfile::tempdir().unwrap();
    let err = repo.fail(&["context", outside.path().to_str().unwrap()]);
    assert!(err.contains("outside the workspace root"), "{err}");
    // Root-relative, and no such folder: the usual unknown folder.
    let err = repo.fail(&["folder", "show", "/src/nothing"]);
    assert!(err.contains("unknown folder"), "{err}");
}

#[test]
fn a_file_argument_means_its_folder_and_says_so() {
    let repo = Repo::init(FLASK);
    let (text, note) = ok_both(&repo, &["context", "src/flask/app.py"]);
    assert_eq!(text, repo.ok(&["context", "src/flask"]));
    assert!(note.contains("src/flask/app.py is a file") && note.contains("src/flask"), "{note}");
    let json = repo.json(&["context", "/src/flask/app.py"]);
    assert_eq!(json["path"], "src/flask");
    assert_eq!(json["from_file"], "src/flask/app.py");
    let folder = repo.json(&["folder", "show", "src/flask/views.py"]);
    assert_eq!((&folder["path"], &folder["from_file"]), (&"src/flask".into(), &"src/flask/views.py".into()));
    // A folder named as a folder has no `from_file`.
    assert!(repo.json(&["folder", "show", "src/flask"]).get("from_file").is_none());
    // The same resolution for every folder argument: a decision, a scope.
    repo.ok(&["log", "src/util.py", "--title", "Helpers stay pure"]);
    assert_eq!(repo.json(&["log", "list", "src"])[0]["folder"], "src");
    repo.ok(&["folder", "scope", "/src/flask/app.py", "--on"]);
    assert_eq!(repo.json(&["folder", "show", "src/flask"])["is_scope"], true);
    // Quiet: no note.
    let (_, note) = ok_both(&repo, &["--quiet", "context", "src/flask/app.py"]);
    assert_eq!(note, "");
}

#[test]
fn a_hook_error_says_its_cause_once() {
    let repo = Repo::init(FLASK);
    #[cfg(unix)]
    std::os::unix::fs::symlink("loop.jsonl", repo.path("loop.jsonl")).unwrap();
    let payload = serde_json::json!({
        "session_id": "s1",
        "transcript_path": repo.path("loop.jsonl"),
        "cwd": repo.root(),
        "hook_event_name": "Stop",
    })
    .to_string();
    let out = repo.run_fed(&["hook", "Stop"], move |stdin| stdin.write_all(payload.as_bytes()));
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("Too many levels of symbolic links").count(), 1, "{stderr}");
}

#[test]
fn ingest_reads_the_transcripts_of_a_folder() {
    let repo = Repo::init(FLASK);
    repo.write("logs/a.jsonl", "{\"type\":\"note\",\"role\":\"user\",\"text\":\"ship the login page\"}\n");
    repo.write("logs/deeper/b.jsonl", "{\"type\":\"note\",\"role\":\"user\",\"text\":\"then the logout\"}\n");
    let report = repo.json(&["ingest", "logs"]);
    assert_eq!(report["added"], 2, "{report}");
    let text = repo.ok(&["ingest", "logs"]);
    assert!(!text.contains("os error"), "{text}");
}

#[test]
fn a_scan_reports_what_a_silent_scan_found_since_the_last_report() {
    let repo = Repo::init(FLASK);
    repo.write("src/flask/auth.py", "def login():\n    pass\n");
    repo.ok(&["map"]);
    let text = repo.ok(&["scan"]);
    assert!(text.contains("1 file added") && text.contains("added: src/flask/auth.py\n"), "{text}");
    assert!(!text.contains("not listed"), "{text}");
    // Reported once: the next scan has nothing earlier to tell.
    let json = repo.scan();
    assert!(json.get("earlier").is_none(), "{json}");

    repo.write("src/flask/forms.py", "def form():\n    pass\n");
    repo.remove("src/util.py");
    repo.ok(&["rank", "--query", "forms"]);
    let json = repo.scan();
    assert_eq!(json["files_added"], 0);
    let earlier = &json["earlier"];
    assert_eq!((&earlier["files_added"], &earlier["files_removed"]), (&1.into(), &1.into()), "{json}");
    assert_eq!(earlier["added"][0], "src/flask/forms.py");
    assert_eq!(earlier["removed"][0], "src/util.py");
    assert!(earlier["scans"].as_u64().unwrap() >= 1);
}

#[test]
fn counts_agree_with_their_nouns() {
    let repo = Repo::init(FLASK);
    let built = repo.ok(&["build", "--force", "--tier", "minimal", "src/flask"]);
    assert!(built.contains("1 file written for 1 folder"), "{built}");
    repo.write("src/flask/more.py", "def more():\n    pass\n");
    let scanned = repo.ok(&["scan"]);
    assert!(scanned.contains("1 file added") && scanned.contains("0 folders added"), "{scanned}");
    repo.write("README.md", "# demo\nA demo app, renamed.\n");
    let scanned = repo.ok(&["scan"]);
    assert!(
        scanned.contains("0 files added, 1 changed") && scanned.contains("stale: 1 folder ("),
        "{scanned}"
    );
    repo.write("one.jsonl", "{\"type\":\"note\",\"role\":\"user\",\"text\":\"one\"}\n");
    let ingested = repo.ok(&["ingest", "one.jsonl"]);
    assert!(ingested.contains("1 line ") && ingested.contains("1 record added"), "{ingested}");
    let archived = repo.ok(&["archive", "--older-than", "1000d"]);
    assert_eq!(archived.trim(), "archived 0 records");

    // A context file cut to its cap names what it cut, in the right number
    // (3 long decisions on the scope above and 5 here cut 1 rationale today).
    let long: Vec<String> = (0..300).map(|i| format!("reason{i}")).collect();
    let long = long.join(" ");
    repo.ok(&["folder", "scope", "src", "--on"]);
    for (folder, n) in [("src", 3), ("src/flask", 5)] {
        for i in 0..n {
            repo.ok(&["log", folder, "--title", &format!("Rule {i} of {folder}"), "--rationale", &long]);
        }
    }
    let full = repo.ok(&["context", "src/flask", "--tier", "full"]);
    let cut = full.lines().find_map(|l| l.strip_prefix("- the rationale of ")).expect(&full);
    let (n, noun) = cut.split_once(' ').unwrap();
    let n: usize = n.parse().unwrap();
    assert!(noun.starts_with(if n == 1 { "decision " } else { "decisions " }), "{cut}");
}

#[test]
fn an_edit_prints_what_changed_and_the_folder_only_when_asked() {
    let repo = Repo::init(FLASK);
    let said = repo.ok(&["folder", "describe", "src/flask", "--description", "The web app"]);
    assert!(said.lines().count() <= 2, "{said}");
    assert!(said.contains("src/flask") && said.contains("The web app"), "{said}");
    // Only what was given: the content, not the description it already had.
    repo.write("notes.md", "# Flask\n\nThe app factory lives in app.py.\n");
    let said = repo.ok(&["folder", "describe", "src/flask", "--content-file", "notes.md"]);
    assert_eq!(said, "content of src/flask: 3 lines\n");
    let shown = repo.ok(&["folder", "describe", "src/flask", "--description", "The web app", "--show"]);
    assert!(shown.contains("files:") && shown.contains("app.py"), "{shown}");
    // JSON stays the whole folder: programs read it.
    let json = repo.json(&["folder", "scope", "src/flask", "--on"]);
    assert_eq!((&json["path"], &json["is_scope"]), (&"src/flask".into(), &true.into()));
    assert!(json["files"].as_array().unwrap().len() >= 2, "{json}");
    let said = repo.ok(&["folder", "scope", "src/flask", "--off"]);
    assert_eq!(said.lines().count(), 1, "{said}");
    let said = repo.ok(&["folder", "relate", "src/flask", "src", "--note", "its parent package"]);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("src/flask") && said.contains("its parent package"), "{said}");
}

#[test]
fn an_artifact_edit_prints_one_line() {
    let repo = Repo::init(FLASK);
    repo.write("docs/spec.md", "# Spec\n\n## Goals\n\nShip.\n\n## Plan\n\nSoon.\n");
    repo.ok(&["artifact", "add", "docs/spec.md"]);
    let said = repo.ok(&["artifact", "finalize", "spec"]);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("spec") && said.contains("finalized"), "{said}");
    let shown = repo.ok(&["artifact", "unfinalize", "spec", "--show"]);
    assert!(shown.contains("goals") && shown.contains("plan"), "{shown}");
}

#[test]
fn quiet_keeps_data_and_errors_and_drops_the_rest() {
    let repo = Repo::with_files(FLASK);
    let (out, err) = ok_both(&repo, &["-q", "init"]);
    assert_eq!((out.as_str(), err.as_str()), ("", ""));
    repo.write("src/new.py", "x = 1\n");
    assert_eq!(repo.ok(&["--quiet", "scan"]), "");
    assert_eq!(repo.ok(&["-q", "build"]), "");
    assert_eq!(repo.ok(&["-q", "folder", "describe", "src", "--description", "Sources"]), "");
    // What was asked for still prints.
    assert!(repo.ok(&["-q", "context", "src"]).starts_with("# Context: /src"));
    // JSON is unchanged.
    let json = repo.json(&["-q", "status"]);
    assert!(json["files"].as_u64().unwrap() > 0, "{json}");
    // Errors still say what went wrong.
    let err = repo.fail(&["-q", "context", "nowhere"]);
    assert!(err.contains("unknown folder"), "{err}");
}

#[test]
fn verbose_adds_the_detail_there_is() {
    let repo = Repo::init(FLASK);
    repo.write("src/flask/auth.py", "def login():\n    pass\n");
    let text = repo.ok(&["-v", "scan"]);
    assert!(text.contains("walk") && text.contains("apply"), "timings: {text}");
    assert!(text.contains("added: src/flask/auth.py"), "which files: {text}");
    let text = repo.ok(&["--verbose", "build"]);
    assert!(text.contains("src/flask") && text.contains("tiers"), "{text}");
    assert!(repo.run(&["-q", "-v", "status"]).status.code() == Some(2), "quiet and verbose conflict");
}
