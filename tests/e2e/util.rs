//! A fixture repository in a temp dir, and `ctx` run inside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A temporary repository. Files are written with [`Repo::write`] or from a
/// fixture string (`//- path` lines start each file, as in rust-analyzer).
pub struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    pub fn new() -> Repo {
        Repo { dir: tempfile::tempdir().expect("temp dir") }
    }

    /// A repository holding the files of `fixture` (see the type docs).
    pub fn with_files(fixture: &str) -> Repo {
        let repo = Repo::new();
        let mut path: Option<String> = None;
        let mut text = String::new();
        for line in fixture.lines().chain(std::iter::once("//- ")) {
            if let Some(next) = line.trim_start().strip_prefix("//- ") {
                if let Some(path) = path.take() {
                    repo.write(&path, &text);
                }
                path = Some(next.trim().to_string()).filter(|p| !p.is_empty());
                text.clear();
            } else if path.is_some() {
                text.push_str(line.trim_start());
                text.push('\n');
            }
        }
        repo
    }

    /// A repository with fixture files, already `ctx init`-ed (and so scanned and built).
    pub fn init(fixture: &str) -> Repo {
        let repo = Repo::with_files(fixture);
        repo.ok(&["init"]);
        repo
    }

    /// [`Repo::init`] without the agent files (AGENTS.md, CLAUDE.md, the
    /// map): for tests that count the fixture's files.
    pub fn init_without_agents(fixture: &str) -> Repo {
        let repo = Repo::with_files(fixture);
        repo.ok(&["init", "--no-agents"]);
        repo
    }

    /// A repository with fixture files, `ctx init --no-build`-ed: scanned, no context files yet.
    pub fn init_unbuilt(fixture: &str) -> Repo {
        let repo = Repo::with_files(fixture);
        repo.ok(&["init", "--no-build"]);
        repo
    }

    /// A `git clone` of `origin` (a git repository) in a new temp dir.
    pub fn clone_of(origin: &Repo) -> Repo {
        let repo = Repo::new();
        let origin = origin.root().to_str().expect("a UTF-8 temp path");
        repo.git(&["clone", "--quiet", origin, "."]);
        repo
    }

    /// `git` in the repository, as a fixed author; its standard output.
    /// Panics when git fails.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_output(args);
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `git` in the repository, as a fixed author, whatever its exit status.
    pub fn git_output(&self, args: &[&str]) -> Output {
        Command::new("git")
            .args([
                "-c",
                "user.name=ctx tests",
                "-c",
                "user.email=tests@ctx.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(["-c", "init.defaultBranch=main", "-c", "core.autocrlf=false"])
            .args(args)
            .current_dir(self.root())
            .output()
            .expect("git runs")
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn remove(&self, rel: &str) {
        let path = self.path(rel);
        if path.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) }.unwrap();
    }

    /// A `ctx` command running in the repository root, without the caller's
    /// token budget variables (a test sets its own, see [`Repo::ok_with`]).
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("ctx"));
        cmd.args(args).current_dir(self.root());
        for part in ["TOTAL", "ANCESTORS", "SIBLINGS", "CURRENT", "OVERHEAD"] {
            cmd.env_remove(format!("CTX_TOKEN_BUDGET_{part}"));
        }
        cmd
    }

    /// Start `ctx` in the background, capturing its output.
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        let mut cmd = self.cmd(args);
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        cmd.spawn().expect("spawn ctx")
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    /// Run `ctx` with its standard input written by `feed` on another
    /// thread (which stops when ctx stops reading).
    pub fn run_fed(
        &self,
        args: &[&str],
        feed: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send + 'static,
    ) -> Output {
        let mut cmd = self.cmd(args);
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().expect("spawn ctx");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = feed(&mut stdin);
        });
        let output = child.wait_with_output().expect("run ctx");
        writer.join().expect("the feeding thread");
        output
    }

    /// Run `ctx` with environment variables set.
    pub fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.cmd(args).envs(env.iter().copied()).output().expect("run ctx")
    }

    /// Run `ctx`, insist on success, return stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        self.ok_with(args, &[])
    }

    /// [`Repo::ok`] with environment variables set.
    pub fn ok_with(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = self.run_with(args, env);
        assert!(
            out.status.success(),
            "ctx {args:?} failed with {}:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 stdout")
    }

    /// Run `ctx`, insist on failure with a one-line message, return stderr.
    pub fn fail(&self, args: &[&str]) -> String {
        self.fail_with(args, &[])
    }

    /// [`Repo::fail`] with environment variables set.
    pub fn fail_with(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = self.run_with(args, env);
        assert!(
            !out.status.success(),
            "ctx {args:?} should have failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(out.status.code(), Some(1), "ctx {args:?}: exit code");
        let stderr = String::from_utf8(out.stderr).expect("utf-8 stderr");
        assert_eq!(stderr.trim_end().lines().count(), 1, "ctx {args:?}: one-line error, got:\n{stderr}");
        stderr
    }

    /// Run `ctx --json ...` and parse stdout.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let text = self.ok(&all);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("ctx {args:?}: bad JSON ({e}):\n{text}"))
    }

    pub fn scan(&self) -> Value {
        self.json(&["scan"])
    }

    /// The database, opened directly (to set up states or check integrity).
    pub fn db(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(self.path(".ctx/ctx.db")).unwrap();
        conn.busy_timeout(std::time::Duration::from_secs(30)).unwrap();
        conn
    }

    /// Clear every stale flag, as a build will, so a test can see what a change marks.
    pub fn clear_stale(&self) {
        self.db().execute("UPDATE nodes SET stale = 0", []).unwrap();
    }

    /// Folders flagged stale: what scans and edits mark (and a build
    /// clears; see [`Repo::clear_stale`]), sorted. `ctx status` judges by
    /// the source hash instead, as `ctx validate` does.
    pub fn stale(&self) -> Vec<String> {
        let rows = query_rows(
            &self.db(),
            "SELECT path FROM nodes WHERE kind = 'folder' AND stale = 1 ORDER BY path",
        );
        rows.unwrap().into_iter().map(|mut row| row.remove(0)).collect()
    }

    pub fn integrity_ok(&self) {
        assert_eq!(self.integrity(), "ok");
    }

    /// `ok`, or what SQLite's integrity check (of the tables, then of the
    /// full-text index against the records) found wrong.
    pub fn integrity(&self) -> String {
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE;
        let db = match rusqlite::Connection::open_with_flags(self.path(".ctx/ctx.db"), flags) {
            Ok(db) => db,
            Err(err) => return format!("cannot open: {err}"),
        };
        let _ = db.busy_timeout(std::time::Duration::from_secs(30));
        match db.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0)) {
            Ok(result) if result == "ok" => {}
            Ok(result) => return result,
            Err(err) => return err.to_string(),
        }
        match db.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')", []) {
            Ok(_) => "ok".into(),
            Err(err) => format!("records_fts: {err}"),
        }
    }
}

impl Repo {
    /// Every file in `.ctx/context/`, by name, with its text.
    pub fn context_files(&self) -> std::collections::BTreeMap<String, String> {
        let dir = self.path(".ctx/context");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Default::default() };
        entries
            .map(|e| e.unwrap())
            .map(|e| (e.file_name().into_string().unwrap(), std::fs::read_to_string(e.path()).unwrap()))
            .collect()
    }

    /// The text of one context file.
    pub fn context_file(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(&format!(".ctx/context/{name}")))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

/// The rows `sql` returns, each as its columns' text (blobs in hex).
pub fn query_rows(db: &rusqlite::Connection, sql: &str) -> rusqlite::Result<Vec<Vec<String>>> {
    use rusqlite::types::ValueRef;
    let mut stmt = db.prepare(sql)?;
    let columns = stmt.column_count();
    let mut rows = stmt.query([])?;
    let mut all = Vec::new();
    while let Some(row) = rows.next()? {
        let text = |i| -> rusqlite::Result<String> {
            Ok(match row.get_ref(i)? {
                ValueRef::Null => "NULL".to_string(),
                ValueRef::Integer(n) => n.to_string(),
                ValueRef::Real(x) => x.to_string(),
                ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                ValueRef::Blob(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
            })
        };
        all.push((0..columns).map(text).collect::<rusqlite::Result<_>>()?);
    }
    Ok(all)
}

/// A JSON array of strings as a `Vec`.
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The `name`s of a `ctx folder show --json` folder's files.
pub fn file_names(folder: &Value) -> Vec<String> {
    folder["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_string()).collect()
}
