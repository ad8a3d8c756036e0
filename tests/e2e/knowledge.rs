//! Knowledge that travels with the repository: what people and agents
//! author is written to `.ctx/knowledge/`, committed with real git, cloned,
//! merged, edited by hand, and read back by the next scan.

use serde_json::Value;

use crate::util::Repo;

const FIXTURE: &str = "
//- src/auth/session.rs
pub fn login() {}
//- src/db/pool.rs
pub fn acquire() {}
//- docs/api.md
# API
";

/// Author one of everything in `repo`: descriptions, content, a scope, a
/// relation, decisions (on a folder and a frame), pins, an epic with tasks,
/// criteria, an artifact, a failed attempt.
fn author_everything(repo: &Repo) {
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sessions and tokens"]);
    let fed = repo.run_fed(&["folder", "describe", "src/auth", "--content-file", "-"], |stdin| {
        stdin.write_all(b"# Auth\n\nTokens live 15 minutes; refresh goes through `session.rs`.\n")
    });
    assert!(fed.status.success(), "{}", String::from_utf8_lossy(&fed.stderr));
    repo.ok(&["folder", "scope", "src/auth", "--on"]);
    repo.ok(&["folder", "relate", "src/auth", "docs", "--note", "the API it serves"]);
    repo.ok(&["folder", "describe", ".", "--description", "A small web service"]);
    repo.ok(&[
        "log",
        "src/auth",
        "--title",
        "Bearer tokens over cookies",
        "--rationale",
        "CLI clients cannot keep cookies.\n\nRevisit for the browser app.",
        "--tag",
        "architectural",
    ]);
    repo.ok(&["log", "src/db", "--title", "One pool per process"]);
    repo.ok(&["pin", "add", "Run the auth tests with --release"]);
    repo.ok(&["task", "add", "Auth hardening", "--type", "epic"]);
    repo.ok(&[
        "task",
        "add",
        "Sign tokens",
        "--epic",
        "F1",
        "--criteria",
        "tokens verify",
        "--criteria",
        "tests pass",
    ]);
    repo.ok(&[
        "task",
        "add",
        "Rotate keys",
        "--epic",
        "F1",
        "--description",
        "Rotate the signing keys monthly",
    ]);
    repo.ok(&["task", "start", "F2"]);
    repo.ok(&["frame", "artifact", "add", "src/auth/session.rs"]);
    repo.ok(&["frame", "decision", "add", "HS256 for now", "--rationale", "one service signs and verifies"]);
    repo.ok(&[
        "task",
        "fail",
        "F2",
        "--reason",
        "clock skew broke verification",
        "--observation",
        "CI clock is 3 s late",
    ]);
    repo.ok(&["task", "start", "F3"]);
}

/// What ctx shows of the authored state, with the times that differ from
/// machine to machine (when a row was written, when a file was built) taken out.
fn authored_view(repo: &Repo) -> Value {
    let mut view = serde_json::json!({
        "root": repo.json(&["folder", "show", "."]),
        "auth": repo.json(&["folder", "show", "src/auth"]),
        "db": repo.json(&["folder", "show", "src/db"]),
        "decisions": repo.json(&["log", "list"]),
        "tasks": repo.json(&["task", "list"]),
        "pins": repo.json(&["pin", "list"]),
        "F2": repo.json(&["frame", "show", "F2"]),
        "current": repo.json(&["frame", "status"]),
    });
    strip_local_times(&mut view);
    view
}

fn strip_local_times(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for key in ["updated_at", "described_at", "stale", "files", "size"] {
                map.remove(key);
            }
            map.values_mut().for_each(strip_local_times);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_local_times),
        _ => {}
    }
}

/// The context files, without their `Generated:` line.
fn context_files(repo: &Repo) -> std::collections::BTreeMap<String, String> {
    repo.context_files()
        .into_iter()
        .map(|(name, text)| {
            let text: Vec<&str> = text.lines().filter(|line| !line.starts_with("> Generated:")).collect();
            (name, text.join("\n"))
        })
        .collect()
}

fn knowledge_files(repo: &Repo) -> Vec<String> {
    let dir = repo.path(".ctx/knowledge");
    let mut files = Vec::new();
    for kind in std::fs::read_dir(&dir).unwrap() {
        let kind = kind.unwrap();
        for file in std::fs::read_dir(kind.path()).unwrap() {
            files.push(format!(
                "{}/{}",
                kind.file_name().to_string_lossy(),
                file.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    files.sort();
    files
}

fn committed(fixture: &str) -> Repo {
    let repo = Repo::with_files(fixture);
    repo.git(&["init", "--quiet"]);
    repo.ok(&["init"]);
    repo
}

#[test]
fn a_clone_gets_everything_authored_and_so_does_a_deleted_database() {
    let a = committed(FIXTURE);
    author_everything(&a);
    a.ok(&["build"]);
    let files = knowledge_files(&a);
    assert_eq!(files.iter().filter(|f| f.starts_with("folders/")).count(), 2, "{files:?}");
    assert_eq!(files.iter().filter(|f| f.starts_with("decisions/")).count(), 3, "{files:?}");
    assert_eq!(files.iter().filter(|f| f.starts_with("frames/")).count(), 3, "{files:?}");
    assert_eq!(files.iter().filter(|f| f.starts_with("pins/")).count(), 1, "{files:?}");
    // Nothing under .ctx/ that should travel is ignored; the database is.
    let ignored = a.git(&["status", "--porcelain", "--ignored", ".ctx"]);
    assert!(ignored.contains("!! .ctx/ctx.db"), "{ignored}");
    assert!(!ignored.contains("!! .ctx/knowledge"), "{ignored}");
    a.git(&["add", "-A"]);
    a.git(&["commit", "--quiet", "-m", "Describe the service"]);
    let expected = authored_view(&a);
    assert_eq!(expected["tasks"].as_array().unwrap().len(), 3);
    assert_eq!(expected["F2"]["attempts"][0]["reason"], "clock skew broke verification");
    assert_eq!(expected["current"]["current"]["id"], "F3", "{}", expected["current"]);

    let b = Repo::clone_of(&a);
    assert!(!b.path(".ctx/ctx.db").exists());
    b.ok(&["init"]);
    assert_eq!(authored_view(&b), expected);
    assert_eq!(context_files(&b), context_files(&a));
    assert_eq!(knowledge_files(&b), files);
    // Loading changed nothing on disk.
    assert_eq!(b.git(&["status", "--porcelain"]), "");

    // The database is a cache: deleted, it comes back whole from the files.
    for name in ["ctx.db", "ctx.db-wal", "ctx.db-shm"] {
        let _ = std::fs::remove_file(b.path(&format!(".ctx/{name}")));
    }
    let scan = b.json(&["scan"]);
    assert_eq!(scan["knowledge"]["loaded"].as_array().unwrap().len(), files.len(), "{scan}");
    assert_eq!(authored_view(&b), expected);
    b.ok(&["build"]);
    assert_eq!(context_files(&b), context_files(&a));
    assert_eq!(b.git(&["status", "--porcelain"]), "");
}

#[test]
fn two_branches_merge_without_a_conflict_and_both_sides_survive() {
    let repo = committed(FIXTURE);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "--quiet", "-m", "Start"]);

    repo.git(&["checkout", "--quiet", "-b", "topic"]);
    repo.ok(&["log", "src/auth", "--title", "Tokens expire after 15 minutes"]);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sessions and tokens"]);
    repo.ok(&["task", "add", "Refresh tokens"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "--quiet", "-m", "topic"]);

    repo.git(&["checkout", "--quiet", "main"]);
    repo.ok(&["log", "src/db", "--title", "Pool size comes from the config"]);
    repo.ok(&["folder", "describe", "src/db", "--description", "The connection pool"]);
    // Made on another branch, this task is F1 too.
    repo.ok(&["task", "add", "Tune the pool"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "--quiet", "-m", "main"]);

    let merge = repo.git_output(&["merge", "--no-edit", "topic"]);
    assert!(merge.status.success(), "{}", String::from_utf8_lossy(&merge.stdout));
    let scan = repo.json(&["scan"]);
    assert!(scan["knowledge"]["warnings"].as_array().unwrap().is_empty(), "{scan}");

    let titles: Vec<String> = repo
        .json(&["log", "list"])
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["title"].as_str().unwrap().into())
        .collect();
    assert!(titles.contains(&"Tokens expire after 15 minutes".to_string()), "{titles:?}");
    assert!(titles.contains(&"Pool size comes from the config".to_string()), "{titles:?}");
    assert_eq!(repo.json(&["folder", "show", "src/auth"])["description"], "Sessions and tokens");
    assert_eq!(repo.json(&["folder", "show", "src/db"])["description"], "The connection pool");
    // Both tasks, with numbers of their own: the later one was renumbered, and its file renamed.
    let tasks = repo.json(&["task", "list"]);
    let mut ids: Vec<(String, String)> = tasks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["title"].as_str().unwrap().into(), t["id"].as_str().unwrap().into()))
        .collect();
    ids.sort();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_ne!(ids[0].1, ids[1].1, "{ids:?}");
    let frames: Vec<String> =
        knowledge_files(&repo).into_iter().filter(|f| f.starts_with("frames/")).collect();
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert!(
        frames.iter().any(|f| f.starts_with("frames/F1-"))
            && frames.iter().any(|f| f.starts_with("frames/F2-")),
        "{frames:?}"
    );
    // A second scan has nothing left to do.
    assert_eq!(repo.json(&["scan"])["knowledge"]["written"], serde_json::json!([]));
}

#[test]
fn a_hand_edit_is_read_by_the_next_scan_and_makes_the_folder_stale() {
    let repo = Repo::init(FIXTURE);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sessions"]);
    repo.ok(&["build"]);
    assert!(repo.stale().is_empty(), "{:?}", repo.stale());
    let file = ".ctx/knowledge/folders/src--auth.md";
    let text = std::fs::read_to_string(repo.path(file)).unwrap();
    repo.write(file, &text.replace("Sessions", "Sessions, tokens and the login flow"));

    let scan = repo.json(&["scan"]);
    assert_eq!(scan["knowledge"]["loaded"], serde_json::json!([file]), "{scan}");
    assert_eq!(repo.stale(), [".", "src", "src/auth"]);
    assert_eq!(
        repo.json(&["folder", "show", "src/auth"])["description"],
        "Sessions, tokens and the login flow"
    );
    repo.ok(&["build"]);
    assert!(repo.context_file("src--auth.standard.md").contains("Sessions, tokens and the login flow"));

    // A file written by hand, with no id: read, given one, and named as ctx names it.
    repo.write(
        ".ctx/knowledge/decisions/mine.md",
        "+++\ntitle = \"Keep the pool small\"\nfolder = \"src/db\"\n+++\n\nBecause.\n",
    );
    let scan = repo.json(&["scan"]);
    let decisions = repo.json(&["log", "list", "src/db"]);
    assert_eq!(decisions[0]["title"], "Keep the pool small", "{scan}");
    let id = decisions[0]["id"].as_str().unwrap();
    assert!(!repo.path(".ctx/knowledge/decisions/mine.md").exists());
    assert!(repo.path(&format!(".ctx/knowledge/decisions/{id}.md")).exists(), "{scan}");

    // A task written by hand under an epic: numbered, placed, and named by ctx.
    repo.ok(&["task", "add", "Pool work", "--type", "epic"]);
    let epic =
        std::fs::read_dir(repo.path(".ctx/knowledge/frames")).unwrap().next().unwrap().unwrap().file_name();
    let epic_uid = epic.to_str().unwrap().trim_end_matches(".md").split_once('-').unwrap().1.to_string();
    repo.write(
        ".ctx/knowledge/frames/new-task.md",
        &format!(
            "+++\ntitle = \"Cap the pool\"\nparent = \"{epic_uid}\"\ncriteria = [\"no more than 20\"]\n+++\n"
        ),
    );
    repo.ok(&["scan"]);
    let tasks = repo.json(&["task", "list", "--epic", "F1"]);
    assert_eq!(tasks[0]["title"], "Cap the pool", "{tasks}");
    assert_eq!(tasks[0]["id"], "F2");
    assert!(!repo.path(".ctx/knowledge/frames/new-task.md").exists());

    // Deleting a file deletes what it held.
    repo.remove(&format!(".ctx/knowledge/decisions/{id}.md"));
    repo.ok(&["scan"]);
    assert_eq!(repo.json(&["log", "list", "src/db"]), serde_json::json!([]));
}

#[test]
fn a_conflicted_or_malformed_file_is_an_error_and_nothing_is_half_loaded() {
    let repo = Repo::init(FIXTURE);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sessions"]);
    repo.ok(&["folder", "describe", "src/db", "--description", "Pool"]);
    let auth = ".ctx/knowledge/folders/src--auth.md";
    let db = ".ctx/knowledge/folders/src--db.md";
    let db_text = std::fs::read_to_string(repo.path(db)).unwrap();
    // One good edit, one file left mid-merge.
    repo.write(auth, "+++\npath = \"src/auth\"\ndescription = \"Changed\"\n+++\n");
    let conflicted = db_text.replace(
        "description = \"Pool\"\n",
        "<<<<<<< HEAD\ndescription = \"Pool\"\n=======\ndescription = \"The pool\"\n>>>>>>> topic\n",
    );
    repo.write(db, &conflicted);
    let err = repo.fail(&["scan"]);
    assert!(err.contains("src--db.md:3") && err.contains("merge conflict markers (lines 3-7)"), "{err}");
    assert_eq!(repo.json(&["folder", "show", "src/auth"])["description"], "Sessions");
    // An authoring command will not write over it either.
    let err = repo.fail(&["log", "src/db", "--title", "x"]);
    assert!(err.contains("src--db.md:3"), "{err}");
    assert_eq!(std::fs::read_to_string(repo.path(db)).unwrap(), conflicted);

    // Malformed front matter: the line of the mistake.
    repo.write(db, "+++\npath = \"src/db\"\ndescripton = \"Pool\"\n+++\n");
    let err = repo.fail(&["scan"]);
    assert!(err.contains("src--db.md:3") && err.contains("descripton"), "{err}");
    let json: Value = serde_json::from_str(&repo.fail(&["scan", "--json"])).unwrap();
    assert_eq!(json["error"]["code"], "INVALID_KNOWLEDGE_FILE", "{json}");

    repo.write(db, &db_text);
    // A value the store refuses: the file is named too.
    repo.write(".ctx/knowledge/decisions/D-bad.md", "+++\ntitle = \"Tagged\"\ntags = [\"two words\"]\n+++\n");
    let err = repo.fail(&["scan"]);
    assert!(err.contains("D-bad.md") && err.contains("a tag is"), "{err}");
    repo.remove(".ctx/knowledge/decisions/D-bad.md");

    repo.ok(&["scan"]);
    assert_eq!(repo.json(&["folder", "show", "src/auth"])["description"], "Changed");
}

#[test]
fn knowledge_of_a_folder_that_goes_waits_for_it_to_come_back() {
    let repo = Repo::init(FIXTURE);
    repo.ok(&["folder", "describe", "src/db", "--description", "The connection pool"]);
    repo.ok(&["log", "src/db", "--title", "One pool per process"]);
    let pool = std::fs::read_to_string(repo.path("src/db/pool.rs")).unwrap();
    repo.remove("src/db");
    let scan = repo.json(&["scan"]);
    assert_eq!(
        scan["knowledge"]["waiting"],
        serde_json::json!([".ctx/knowledge/folders/src--db.md"]),
        "{scan}"
    );
    // Another write does not take the file away.
    repo.ok(&["log", "src/auth", "--title", "Something"]);
    assert!(repo.path(".ctx/knowledge/folders/src--db.md").exists());
    let decisions = repo.json(&["log", "list"]);
    let pool_decision = decisions.as_array().unwrap().iter().find(|d| d["title"] == "One pool per process");
    assert_eq!(pool_decision.unwrap()["folder"], Value::Null, "{decisions}");
    repo.write("src/db/pool.rs", &pool);
    repo.ok(&["scan"]);
    let folder = repo.json(&["folder", "show", "src/db"]);
    assert_eq!(folder["description"], "The connection pool");
    // Its decision is attached to it again, and its file never changed.
    assert_eq!(folder["decisions"][0]["title"], "One pool per process", "{folder}");
}

#[test]
fn a_store_from_before_the_knowledge_files_writes_them_all() {
    let repo = Repo::init(FIXTURE);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Sessions"]);
    repo.ok(&["log", "src/auth", "--title", "Bearer tokens"]);
    // As a ctx without knowledge files (schema 8) left it: the store has it all, the disk nothing.
    std::fs::remove_dir_all(repo.path(".ctx/knowledge")).unwrap();
    let db = repo.db();
    let triggers: Vec<String> = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'knowledge%'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!triggers.is_empty());
    for trigger in triggers {
        db.execute_batch(&format!("DROP TRIGGER {trigger}")).unwrap();
    }
    db.execute_batch(
        "DROP TABLE derived; DROP TABLE artifact_states; DROP TABLE artifact_snapshots; DROP TABLE artifact_flags;
         DROP TABLE artifacts; DROP TABLE term_postings; DROP TABLE term_docs; DROP TABLE term_segments;
         DROP TABLE file_outlines; DROP INDEX records_summary_session; DROP INDEX records_summary_pool;
         DROP TABLE transcript_cursors; DROP INDEX records_pool_type;
         DROP TABLE knowledge_dirty; DROP TABLE knowledge_files; DROP INDEX nodes_uid;
         ALTER TABLE nodes DROP COLUMN uid; PRAGMA user_version = 8;",
    )
    .unwrap();
    drop(db);
    let scan = repo.json(&["scan"]);
    assert_eq!(scan["knowledge"]["written"].as_array().unwrap().len(), 2, "{scan}");
    assert_eq!(knowledge_files(&repo).len(), 2);
}

#[test]
fn no_secret_reaches_a_knowledge_file() {
    let repo = Repo::init(FIXTURE);
    // Made here, so this file holds no token a scanner would flag.
    let github = format!("gh{}_{}", "p", "Zq8Lr2Vx6Tn4Wb1Kc9Hd3Mf7Yg5Ps0Ja2Ue8Q");
    let aws = format!("{}{}", "AKIA", "Q7ZT3XW9LMN4PK2R");
    repo.ok(&["folder", "describe", "src/auth", "--description", &format!("uses {github} to clone")]);
    repo.ok(&[
        "log",
        "src/auth",
        "--title",
        "Deploy key",
        "--rationale",
        &format!("the key is {aws} for now"),
    ]);
    // A hand edit brings one in.
    let pin_id = repo.ok(&["pin", "add", "Check the pool"]).trim().to_string();
    let pin_file = format!(".ctx/knowledge/pins/{pin_id}.md");
    let text = std::fs::read_to_string(repo.path(&pin_file)).unwrap();
    repo.write(&pin_file, &format!("{text}\nand the token {github}\n"));
    let scan = repo.json(&["scan"]);
    assert_eq!(scan["knowledge"]["redacted"], serde_json::json!([pin_file]), "{scan}");

    for file in knowledge_files(&repo) {
        let text = std::fs::read_to_string(repo.path(&format!(".ctx/knowledge/{file}"))).unwrap();
        assert!(!text.contains(&github) && !text.contains(&aws), "{file}: {text}");
    }
    let pin_text = std::fs::read_to_string(repo.path(&pin_file)).unwrap();
    assert!(pin_text.contains("[REDACTED:"), "{pin_text}");

    // Nor any other file ctx commits: the map (whose signatures show a
    // constant holding the key), the managed sections, the prompts.
    repo.write(
        "src/auth/keys.py",
        &format!("API_TOKEN = \"{github}\"\n\ndef sign(payload):\n    return payload\n"),
    );
    repo.ok(&["update"]);
    let map = std::fs::read_to_string(repo.path(".ctx/map.md")).unwrap();
    assert!(map.contains("keys.py"), "{map}");
    for file in
        ["AGENTS.md", "CLAUDE.md", ".ctx/map.md", ".ctx/boot.md", ".ctx/constitution.md", ".ctx/runloop.md"]
    {
        let text = std::fs::read_to_string(repo.path(file)).unwrap();
        assert!(!text.contains(&github) && !text.contains(&aws), "{file}: {text}");
    }

    // A rule added later: the store is scrubbed, and the files with it.
    repo.ok(&["folder", "describe", "src/db", "--description", "pool key acme_4f9c2a7b1e3d"]);
    let config = std::fs::read_to_string(repo.path(".ctx/config.toml")).unwrap();
    repo.write(
        ".ctx/config.toml",
        &format!("{config}\n[[secrets.rules]]\nid = \"acme\"\ndescription = \"ACME key\"\nregex = 'acme_[a-f0-9]{{12}}'\nkeywords = [\"acme_\"]\n"),
    );
    repo.ok(&["scan"]);
    let db_file = std::fs::read_to_string(repo.path(".ctx/knowledge/folders/src--db.md")).unwrap();
    assert!(db_file.contains("[REDACTED:acme]") && !db_file.contains("4f9c2a7b1e3d"), "{db_file}");
}
