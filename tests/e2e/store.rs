//! The database file: what ctx does when it is not what it expects.

use crate::util::Repo;

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_intact() {
    let repo = Repo::with_files("//- a.txt\nx\n");
    repo.ok(&["init", "--no-scan"]);
    repo.remove(".ctx/ctx.db");
    repo.write(".ctx/ctx.db", "not a database at all\n");
    let err = repo.fail(&["scan"]);
    assert!(err.contains("not a ctx database"), "{err}");
    assert_eq!(std::fs::read_to_string(repo.path(".ctx/ctx.db")).unwrap(), "not a database at all\n");
}

#[test]
fn a_database_from_a_newer_ctx_is_refused() {
    let repo = Repo::init("//- a.txt\nx\n");
    repo.db().pragma_update(None, "user_version", 999).unwrap();
    let err = repo.fail(&["status"]);
    assert!(err.contains("newer ctx"), "{err}");
}

#[test]
fn another_programs_sqlite_database_is_refused() {
    let repo = Repo::with_files("//- a.txt\nx\n");
    repo.ok(&["init", "--no-scan"]);
    repo.remove(".ctx/ctx.db");
    rusqlite::Connection::open(repo.path(".ctx/ctx.db"))
        .unwrap()
        .execute_batch("CREATE TABLE photos (id)")
        .unwrap();
    let err = repo.fail(&["status"]);
    assert!(err.contains("not a ctx database"), "{err}");
}

#[test]
fn a_broken_config_is_a_clear_error() {
    let repo = Repo::init("//- a.txt\nx\n");
    repo.write(".ctx/config.toml", "[scan]\nmax_file_bytes = \"lots\"\n");
    let err = repo.fail(&["scan"]);
    assert!(err.contains("config.toml") && err.contains("max_file_bytes"), "{err}");
    repo.write(".ctx/config.toml", "[scan]\nexclude = [\"a/{b\"]\n");
    let err = repo.fail(&["scan"]);
    assert!(err.contains("exclude"), "{err}");
}

#[test]
fn processes_creating_the_database_at_once_all_succeed() {
    let repo = Repo::with_files("//- src/a.py\nx = 1\n//- src/b.py\ny = 2\n");
    std::fs::create_dir(repo.path(".ctx")).unwrap();
    let children: Vec<_> =
        ["scan", "status", "scan", "status"].iter().map(|cmd| repo.spawn(&["--json", cmd])).collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let status = repo.json(&["status"]);
    assert_eq!(status["schema_version"], ctxkeep_core::SCHEMA_VERSION);
    assert_eq!(status["files"], 2);
    repo.integrity_ok();
}
