//! Faults: `ctx` killed (SIGKILL) at random points of a scan, a forced
//! build and an ingest, and eight writers at once beside a build and a scan.
//!
//! After each kill the database passes SQLite's integrity checks, what was
//! committed before the kill is still there, the store holds the state from
//! before the command or from after it (never a mix), and running the
//! command again leaves the store as an uninterrupted run would.
//!
//! The test command runs `CTX_FAULT_TRIALS` trials of each (default 12);
//! `benches/faults.sh N` runs N and prints the summary lines. The delays
//! come from a seeded generator: each test prints its seed, and
//! `CTX_FAULT_SEED` replays it.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;
use std::time::{Duration, Instant};

use ctx_benches::Rng;
use rusqlite::OpenFlags;

use crate::util::{Repo, query_rows};

/// The generator of test `name`, seeded by `CTX_FAULT_SEED`, else by the clock.
fn seeded(name: &str) -> Rng {
    let seed = std::env::var("CTX_FAULT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    println!("faults {name}: seed {seed} (CTX_FAULT_SEED={seed} replays it)");
    Rng(seed)
}

fn percent(rng: &mut Rng, p: usize) -> bool {
    rng.below(100) < p
}

/// A delay in `0..=window`.
fn delay(rng: &mut Rng, window: Duration) -> Duration {
    Duration::from_micros(rng.below(window.as_micros() as usize + 1) as u64)
}

/// A number from the environment (the long script raises them), else `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn trials() -> usize {
    setting("CTX_FAULT_TRIALS", 12)
}

/// What the trials of one operation found, printed as one summary line
/// (`benches/faults.sh` collects them); any problem fails the test.
#[derive(Default)]
struct Tally {
    trials: usize,
    /// Trials whose `ctx` the kill stopped (the others had finished).
    killed: usize,
    corrupt: usize,
    lost: usize,
    failed_recoveries: usize,
    problems: Vec<String>,
}

impl Tally {
    fn corrupt(&mut self, trial: usize, what: String) {
        self.corrupt += 1;
        self.problems.push(format!("trial {trial}: corrupt database: {what}"));
    }

    fn lost(&mut self, trial: usize, what: String) {
        self.lost += 1;
        self.problems.push(format!("trial {trial}: lost or torn write: {what}"));
    }

    fn failed_recovery(&mut self, trial: usize, what: String) {
        self.failed_recoveries += 1;
        self.problems.push(format!("trial {trial}: recovery failed: {what}"));
    }

    /// Check the database after a kill (a missing one is fine: the kill came
    /// before `ctx` created it).
    fn check_integrity(&mut self, trial: usize, repo: &Repo) {
        if repo.path(".ctx/ctx.db").exists() {
            let result = repo.integrity();
            if result != "ok" {
                self.corrupt(trial, result);
            }
        }
    }

    fn finish(self, operation: &str) {
        let summary = format!(
            "faults {operation}: {} trials ({} killed mid-run), {} corrupt databases, {} lost writes, \
             {} failed recoveries",
            self.trials, self.killed, self.corrupt, self.lost, self.failed_recoveries
        );
        println!("{summary}");
        assert!(self.problems.is_empty(), "{summary}\n{}", self.problems.join("\n"));
    }
}

/// Start `ctx args` and SIGKILL it after `delay` (`Child::kill` is SIGKILL on
/// Unix). `Ok(true)`: the kill stopped it; `Ok(false)`: it had finished, successfully.
fn kill_after(repo: &Repo, args: &[&str], delay: Duration) -> Result<bool, String> {
    let mut child = repo.spawn(args);
    std::thread::sleep(delay);
    if child.try_wait().unwrap().is_none() {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    match out.status.code() {
        None => Ok(true),
        Some(0) => Ok(false),
        Some(_) => Err(format!("ctx {args:?} failed on its own: {}", stderr(&out))),
    }
}

/// How long `ctx args` takes, uninterrupted: the window the kills fall in.
fn timed(repo: &Repo, args: &[&str]) -> Duration {
    let start = Instant::now();
    repo.ok(args);
    start.elapsed()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim_end().to_string()
}

/// Run `ctx args`; its stderr if it failed.
fn attempt(repo: &Repo, args: &[&str]) -> Result<(), String> {
    let out = repo.run(args);
    if out.status.success() { Ok(()) } else { Err(format!("ctx {args:?}: {}: {}", out.status, stderr(&out))) }
}

/// The database, if there is one (never created here).
fn existing_db(repo: &Repo) -> Option<rusqlite::Connection> {
    let db =
        rusqlite::Connection::open_with_flags(repo.path(".ctx/ctx.db"), OpenFlags::SQLITE_OPEN_READ_WRITE)
            .ok()?;
    db.busy_timeout(Duration::from_secs(30)).unwrap();
    Some(db)
}

/// The rows `sql` returns (none without a database).
fn rows(repo: &Repo, sql: &str) -> Vec<Vec<String>> {
    existing_db(repo).map(|db| query_rows(&db, sql).unwrap()).unwrap_or_default()
}

/// Remove the database (and its WAL): the next `ctx` starts a new one.
fn remove_db(repo: &Repo) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(repo.path(&format!(".ctx/ctx.db{suffix}")));
    }
}

/// The temp files in `.ctx/` (a killed creation of the database leaves some).
fn temp_files(repo: &Repo) -> Vec<String> {
    let entries = std::fs::read_dir(repo.path(".ctx")).unwrap();
    entries
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".new-"))
        .collect()
}

/// What a scan records of the disk: every file's content, every folder.
fn scan_state(repo: &Repo) -> Vec<Vec<String>> {
    rows(
        repo,
        "SELECT 'file', path, size, hash, kind FROM files
         UNION ALL SELECT 'folder', path, '', '', '' FROM nodes WHERE kind = 'folder'
         ORDER BY 1, 2",
    )
}

/// What a clean scan records of the files `disk` (all text, no secrets):
/// [`scan_state`] computed from the disk.
fn clean_scan_state(repo: &Repo, disk: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut folders = BTreeSet::from([".".to_string()]);
    let mut state = Vec::new();
    for path in disk {
        let bytes = std::fs::read(repo.path(path)).unwrap();
        let hash = blake3::hash(&bytes).to_hex().to_string();
        state.push(vec!["file".into(), path.clone(), bytes.len().to_string(), hash, "text".into()]);
        let mut folder = path.as_str();
        while let Some((parent, _)) = folder.rsplit_once('/') {
            folders.insert(parent.to_string());
            folder = parent;
        }
    }
    state.extend(
        folders.into_iter().map(|f| vec!["folder".into(), f, String::new(), String::new(), String::new()]),
    );
    state.sort();
    state
}

/// Files of the scan fixture: `pkg{NN}/mod{NN}.py`, some under `pkg{NN}/sub/`.
fn fixture_file(folder: usize, file: usize) -> String {
    if file % 5 == 4 {
        format!("pkg{folder:02}/sub/mod{file:02}.py")
    } else {
        format!("pkg{folder:02}/mod{file:02}.py")
    }
}

fn module_text(path: &str, version: usize, rng: &mut Rng) -> String {
    let padding = "# padding\n".repeat(rng.below(20));
    format!("\"\"\"Module {path}, version {version}.\"\"\"\n{padding}def f(x):\n    return x + {version}\n")
}

#[test]
fn scan_killed_at_random_points_leaves_a_whole_store_and_recovers() {
    let mut rng = seeded("scan");
    let (folders, per_folder) = (setting("CTX_FAULT_SCAN_FOLDERS", 40), 50);
    let repo = Repo::new();
    let mut disk = BTreeSet::new();
    for folder in 0..folders {
        for file in 0..per_folder {
            let path = fixture_file(folder, file);
            repo.write(&path, &module_text(&path, 0, &mut rng));
            disk.insert(path);
        }
    }
    repo.ok(&["init", "--no-scan", "--no-agents"]);
    let window = timed(&repo, &["scan"]).mul_f32(1.2);
    assert_eq!(scan_state(&repo), clean_scan_state(&repo, &disk), "the model of a clean scan");
    let mut tally = Tally::default();
    for trial in 1..=trials() {
        // Change the disk: rewrite a tenth of the files, delete and add some,
        // now and then a whole folder; now and then start from no database.
        for path in disk.clone() {
            match rng.below(100) {
                0..10 => repo.write(&path, &module_text(&path, trial, &mut rng)),
                10..12 => {
                    repo.remove(&path);
                    disk.remove(&path);
                }
                _ => {}
            }
        }
        for k in 0..rng.below(per_folder) {
            let path = format!("pkg{:02}/new{trial}_{k}.py", rng.below(folders));
            repo.write(&path, &module_text(&path, trial, &mut rng));
            disk.insert(path);
        }
        if percent(&mut rng, 20) {
            let folder = format!("pkg{:02}/", rng.below(folders));
            if repo.path(&folder).exists() {
                repo.remove(&folder);
                disk.retain(|p| !p.starts_with(&folder));
            }
        }
        // Now and then no database, and an early kill: it may come while the
        // database is made; else a committed write the kill must not undo.
        let (marker, window) = if percent(&mut rng, 25) {
            remove_db(&repo);
            (None, window / 8)
        } else {
            let marker = format!("marker of trial {trial}");
            repo.ok(&["record", "add", "--type", "note", "--text", &marker]);
            (Some(marker), window)
        };
        let before = scan_state(&repo);

        tally.trials += 1;
        match kill_after(&repo, &["scan"], delay(&mut rng, window)) {
            Ok(killed) => tally.killed += usize::from(killed),
            Err(err) => tally.failed_recovery(trial, err),
        }
        tally.check_integrity(trial, &repo);
        if let Some(marker) = marker
            && rows(&repo, &format!("SELECT 1 FROM records WHERE body = '{marker}'")).len() != 1
        {
            tally.lost(trial, format!("{marker:?} is gone"));
        }
        let killed = scan_state(&repo);

        if let Err(err) = attempt(&repo, &["scan"]) {
            tally.failed_recovery(trial, err);
        }
        let recovered = scan_state(&repo);
        let leftovers = temp_files(&repo);
        if !leftovers.is_empty() {
            tally.failed_recovery(trial, format!("left in .ctx/: {leftovers:?}"));
        }
        if killed != before && killed != recovered {
            tally.lost(trial, "the killed scan left part of its changes".into());
        }
        if recovered != clean_scan_state(&repo, &disk) {
            let stored: BTreeSet<&String> =
                recovered.iter().filter(|row| row[0] == "file").map(|row| &row[1]).collect();
            let missing: Vec<_> = disk.iter().filter(|p| !stored.contains(p)).take(5).collect();
            tally.failed_recovery(
                trial,
                format!("the store is not a clean scan's (missing {missing:?}, ...)"),
            );
        }
    }
    tally.finish("scan");
}

/// The context files by name, without the line that changes on every build.
fn context_snapshot(repo: &Repo) -> BTreeMap<String, String> {
    let dir = repo.path(".ctx/context");
    let Ok(entries) = std::fs::read_dir(&dir) else { return BTreeMap::new() };
    entries
        .map(|e| e.unwrap())
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap_or_else(|err| format!("unreadable: {err}"));
            let text: Vec<&str> =
                text.split_inclusive('\n').filter(|l| !l.starts_with("> Generated: ")).collect();
            (e.file_name().into_string().unwrap(), text.concat())
        })
        .collect()
}

#[test]
fn build_killed_at_random_points_leaves_whole_files_and_recovers() {
    let mut rng = seeded("build");
    let folders = setting("CTX_FAULT_BUILD_FOLDERS", 20);
    let repo = Repo::new();
    for folder in 0..folders {
        for file in 0..10 {
            let path = fixture_file(folder, file);
            repo.write(&path, &module_text(&path, 0, &mut rng));
        }
    }
    repo.ok(&["init"]);
    let window = timed(&repo, &["build", "--force"]).mul_f32(1.2);
    let mut tally = Tally::default();
    for trial in 1..=trials() {
        // Committed edits the kill must not undo, which change some files' text.
        let folder = format!("pkg{:02}", rng.below(folders));
        let description = format!("Described in trial {trial}");
        let decision = format!("Decision of trial {trial}");
        repo.ok(&["folder", "describe", &folder, "--description", &description]);
        repo.ok(&["log", &folder, "--title", &decision]);
        let before = context_snapshot(&repo);

        tally.trials += 1;
        match kill_after(&repo, &["build", "--force"], delay(&mut rng, window)) {
            Ok(killed) => tally.killed += usize::from(killed),
            Err(err) => tally.failed_recovery(trial, err),
        }
        tally.check_integrity(trial, &repo);
        let described = rows(&repo, &format!("SELECT description FROM nodes WHERE path = '{folder}'"));
        if described != [[description.clone()]] {
            tally.lost(trial, format!("{folder}: description {described:?}"));
        }
        if rows(&repo, &format!("SELECT 1 FROM records WHERE title = '{decision}'")).len() != 1 {
            tally.lost(trial, format!("{decision:?} is gone"));
        }
        let killed = context_snapshot(&repo);

        if let Err(err) = attempt(&repo, &["build"]) {
            tally.failed_recovery(trial, err);
        }
        if let Err(err) = attempt(&repo, &["validate"]) {
            let report = repo.run(&["validate"]).stdout;
            tally.failed_recovery(trial, format!("{err}\n{}", String::from_utf8_lossy(&report)));
        }
        let recovered = context_snapshot(&repo);
        // Each file the kill left is one build's whole file, old or new.
        for (name, text) in &killed {
            if !name.starts_with('.') && before.get(name) != Some(text) && recovered.get(name) != Some(text) {
                tally.lost(trial, format!("{name} is neither the old file nor the new one"));
            }
        }
        let file = format!("{folder}.standard.md");
        if !recovered.get(&file).is_some_and(|text| text.contains(&description)) {
            tally.failed_recovery(trial, format!("{file} does not show the new description"));
        }
    }
    tally.finish("build");
}

/// A session of `lines` JSON lines: Claude Code messages (text, tool calls
/// and their results, summaries) and ctx records, with and without ids.
fn session_jsonl(lines: usize) -> String {
    let mut out = String::new();
    for i in 0..lines {
        let line = match i % 5 {
            0 => serde_json::json!({"type": "user", "sessionId": "S1", "uuid": format!("u{i}"),
                "timestamp": "2026-11-20T09:15:02Z",
                "message": {"role": "user", "content": format!("Why does pool {i} time out after retry {}?", i % 7)}}),
            1 => serde_json::json!({"type": "assistant", "sessionId": "S1", "uuid": format!("u{i}"),
                "timestamp": "2026-11-20T09:15:03Z",
                "message": {"role": "assistant", "content": [
                    {"type": "text", "text": format!("Reading the pool settings, step {i}.")},
                    {"type": "tool_use", "id": format!("call{i}"), "name": "Read", "input": {"file": format!("src/pool{i}.rs")}}]}}),
            2 => serde_json::json!({"type": "user", "sessionId": "S1", "uuid": format!("u{i}"),
                "message": {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": format!("call{}", i - 1), "content": format!("fn pool_{i}() {{}}")}]}}),
            3 => {
                serde_json::json!({"type": "note", "text": format!("ctx note {i} on timeouts"), "id": format!("n{i}"), "session_id": "S2"})
            }
            _ => {
                serde_json::json!({"type": "query", "role": "user", "text": format!("keyed by content {i}"), "tags": ["t"]})
            }
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

fn record_ids(repo: &Repo) -> Vec<Vec<String>> {
    rows(repo, "SELECT uid FROM records ORDER BY uid")
}

#[test]
fn ingest_killed_at_random_points_adds_all_or_nothing_and_recovers() {
    let mut rng = seeded("ingest");
    let repo = Repo::new();
    repo.write("session.jsonl", &session_jsonl(setting("CTX_FAULT_INGEST_LINES", 3000)));
    repo.ok(&["init", "--no-scan"]);
    let window = timed(&repo, &["ingest", "session.jsonl"]).mul_f32(1.2);
    let clean = record_ids(&repo);
    let mut tally = Tally::default();
    for trial in 1..=trials() {
        remove_db(&repo);
        let marker =
            repo.ok(&["record", "add", "--type", "note", "--text", &format!("marker of trial {trial}")]);
        let marker = vec![marker.trim().to_string()];
        let mut whole = clean.clone();
        whole.push(marker.clone());
        whole.sort();

        tally.trials += 1;
        match kill_after(&repo, &["ingest", "session.jsonl"], delay(&mut rng, window)) {
            Ok(killed) => tally.killed += usize::from(killed),
            Err(err) => tally.failed_recovery(trial, err),
        }
        tally.check_integrity(trial, &repo);
        let killed = record_ids(&repo);
        if !killed.contains(&marker) {
            tally.lost(trial, format!("{marker:?} is gone"));
        }
        if killed.len() != 1 && killed != whole {
            tally.lost(trial, format!("the killed ingest left {} of {} records", killed.len(), whole.len()));
        }
        if let Err(err) = attempt(&repo, &["ingest", "session.jsonl"]) {
            tally.failed_recovery(trial, err);
        }
        if record_ids(&repo) != whole {
            tally.failed_recovery(trial, "the records differ from an uninterrupted ingest's".into());
        }
    }
    tally.finish("ingest");
}

/// One write of a writer thread: what it stores, by kind, and its `ctx` arguments.
fn write_args(writer: usize, n: usize, text: &str) -> (&'static str, Vec<String>) {
    let folder = format!("w{writer}");
    let (kind, args): (_, &[&str]) = match (writer + n) % 5 {
        0 => ("note", &["record", "add", "--type", "note", "--text", text]),
        1 => ("pin", &["pin", "add", text]),
        2 => ("decision", &["log", &folder, "--title", text]),
        3 => ("frame", &["frame", "push", text]),
        _ => ("description", &["folder", "describe", &folder, "--description", text]),
    };
    (kind, args.iter().map(|a| a.to_string()).collect())
}

/// A failure is one clean line on stderr with exit code 1: never a panic or an abort.
fn clean_failure(out: &Output) -> Result<(), String> {
    let stderr = stderr(out);
    if out.status.code() == Some(1) && stderr.lines().count() == 1 && stderr.starts_with("ctx: error: ") {
        Ok(())
    } else {
        Err(format!("{}: {stderr}", out.status))
    }
}

#[test]
fn eight_writers_beside_a_build_and_a_scan_lose_nothing() {
    const WRITERS: usize = 8;
    let writes = setting("CTX_FAULT_WRITES", 16);
    let fixture: String = (0..WRITERS).map(|w| format!("//- w{w}/mod.py\nx = {w}\n")).collect();
    let repo = Repo::init(&fixture);
    let done = std::sync::atomic::AtomicBool::new(false);
    let (writes_done, background) = std::thread::scope(|scope| {
        // A forced build and a scan, again and again until the writers are done.
        let background = scope.spawn(|| {
            let mut runs = Vec::new();
            while runs.is_empty() || !done.load(std::sync::atomic::Ordering::Relaxed) {
                for args in [&["build", "--force"][..], &["scan"]] {
                    runs.push((args, repo.run(args)));
                }
            }
            runs
        });
        let writers: Vec<_> = (0..WRITERS)
            .map(|writer| {
                let repo = &repo;
                scope.spawn(move || {
                    (0..writes)
                        .map(|n| {
                            let text = format!("write {n} of writer {writer}");
                            let (kind, args) = write_args(writer, n, &text);
                            let args: Vec<&str> = args.iter().map(String::as_str).collect();
                            (kind, text, args.join(" "), repo.run(&args))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let writes: Vec<_> = writers.into_iter().flat_map(|w| w.join().unwrap()).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (writes, background.join().unwrap())
    });

    let mut failures = Vec::new();
    let mut stored_expected: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut descriptions = BTreeMap::new();
    for (kind, text, args, out) in &writes_done {
        if out.status.success() {
            if *kind == "description" {
                // Each writer describes its own folder: the last description stands.
                descriptions.insert(args.split(' ').nth(2).unwrap().to_string(), text.clone());
            } else {
                stored_expected.entry(kind).or_default().push(text.clone());
            }
        } else {
            failures.push(format!("ctx {args}: {}", stderr(out)));
            if let Err(err) = clean_failure(out) {
                failures.push(format!("  not a clean failure: {err}"));
            }
        }
    }
    for (args, out) in &background {
        if !out.status.success() {
            failures.push(format!("ctx {args:?}: {}", stderr(out)));
        }
    }
    println!(
        "faults writers: {} writes by {WRITERS} writers beside {} builds and scans, {} failed",
        writes_done.len(),
        background.len(),
        failures.len()
    );
    // Under this load every write waits for the lock instead of failing.
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    repo.integrity_ok();

    let stored = |sql: &str| -> Vec<String> {
        let mut texts: Vec<String> = rows(&repo, sql).into_iter().map(|mut row| row.remove(0)).collect();
        texts.sort();
        texts
    };
    for (kind, sql) in [
        ("note", "SELECT body FROM records WHERE type = 'note'"),
        ("pin", "SELECT body FROM records WHERE type = 'pin'"),
        ("decision", "SELECT title FROM records WHERE type = 'decision'"),
        ("frame", "SELECT title FROM nodes WHERE kind = 'frame'"),
    ] {
        let mut expected = stored_expected.remove(kind).unwrap_or_default();
        expected.sort();
        assert_eq!(stored(sql), expected, "{kind}s");
    }
    for writer in 0..WRITERS {
        let folder = format!("w{writer}");
        let description = stored(&format!("SELECT description FROM nodes WHERE path = '{folder}'"));
        assert_eq!(description, [descriptions.get(&folder).cloned().unwrap_or_default()], "{folder}");
    }
}
