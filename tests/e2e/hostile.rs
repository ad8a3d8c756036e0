//! Hostile input: one table row per case (arguments, what is set up or fed
//! on standard input, the exit code, the error code or words expected), run
//! as one test. Every failure is a clean one-line error with the documented
//! exit code (never a panic, 101, or an abort, 134), and leaves the store as
//! it was; every accepted input leaves a database that passes SQLite's
//! integrity checks.
//!
//! A read-only `.ctx/`, corruption found after opening and over-long ingest
//! lines have tests of their own (`limits.rs`): they need a user other than
//! root, a database damaged past its header, or hundreds of megabytes.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::Output;

use crate::util::{Repo, query_rows};

/// What a row sets up in its repository before the command.
type Setup = Box<dyn Fn(&Repo) + Send + Sync>;

/// One row of the table.
struct Case {
    args: Vec<OsString>,
    stdin: Vec<u8>,
    setup: Option<Setup>,
    /// 0 ok, 1 error, 2 usage error.
    exit: i32,
    /// Exit 1: the error code (`UPPER_CASE`) or words of the message; exit 2:
    /// words of clap's message; exit 0: words of the output.
    expect: &'static str,
}

fn check(args: &[&str], exit: i32, expect: &'static str) -> Case {
    Case { args: args.iter().map(OsString::from).collect(), stdin: Vec::new(), setup: None, exit, expect }
}

impl Case {
    fn stdin(mut self, input: impl Into<Vec<u8>>) -> Case {
        self.stdin = input.into();
        self
    }

    fn setup(mut self, setup: impl Fn(&Repo) + Send + Sync + 'static) -> Case {
        self.setup = Some(Box::new(setup));
        self
    }

    /// Replace argument `index` with raw bytes (not UTF-8).
    fn raw_arg(mut self, index: usize, bytes: &[u8]) -> Case {
        self.args[index] = OsString::from_vec(bytes.to_vec());
        self
    }
}

/// The id `ctx ingest` gives the ctx record whose `"id"` is `id`.
fn ingested_id(id: &str) -> String {
    format!("H-{}", &blake3::hash(format!("ctx-id:{id}").as_bytes()).to_hex()[..12])
}

const GOOD_LINE: &str = "{\"type\": \"note\", \"text\": \"a good line\"}\n";

fn config(text: &'static str) -> impl Fn(&Repo) + Send + Sync {
    move |repo: &Repo| repo.write(".ctx/config.toml", text)
}

fn template(name: &'static str, text: &'static str) -> impl Fn(&Repo) + Send + Sync {
    move |repo: &Repo| repo.write(&format!(".ctx/templates/{name}"), text)
}

fn database(bytes: impl Fn(&[u8]) -> Vec<u8> + Send + Sync + 'static) -> impl Fn(&Repo) + Send + Sync {
    move |repo: &Repo| {
        let db = repo.path(".ctx/ctx.db");
        let bytes = bytes(&std::fs::read(&db).unwrap());
        std::fs::write(db, bytes).unwrap();
    }
}

/// A record whose id is `ingested_id("anchor")`.
fn anchor(repo: &Repo) {
    repo.write("anchor.jsonl", "{\"type\": \"note\", \"text\": \"the anchor\", \"id\": \"anchor\"}\n");
    repo.ok(&["ingest", "anchor.jsonl"]);
}

fn push_frame(repo: &Repo) {
    repo.ok(&["frame", "push", "a frame to work in"]);
}

fn cases() -> Vec<Case> {
    let big = "word ".repeat(20_000); // 100 KB: a little under Linux's limit for one argument
    let big: &'static str = big.leak();
    // 5,000 words, 100 of them distinct: 64 are used, 36 dropped.
    let many_words = (0..5000).map(|i| format!("w{}", i % 100)).collect::<Vec<_>>().join(" ");
    let many_words: &'static str = many_words.leak();
    let mut deep = "[".repeat(100_000);
    deep.push_str(&"]".repeat(100_000));
    let deep = format!("{GOOD_LINE}{deep}\n");
    let deep_object = format!("{}1{}\n{GOOD_LINE}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    vec![
        // Usage errors: clap's, exit 2.
        check(&["--bogus"], 2, "unexpected argument '--bogus'"),
        check(&["nosuch"], 2, "unrecognized subcommand 'nosuch'"),
        check(&["scan", "extra"], 2, "unexpected argument 'extra'"),
        check(&["record", "add", "--text", "x"], 2, "--type <TYPE>"),
        check(&["--root", "", "status"], 2, "a value is required for '--root <DIR>'"),
        check(&["context", ".", "--tier", "bogus"], 2, "the tiers are minimal, standard, full, deep"),
        check(&["context", ".", "--format", "xml"], 2, "invalid value 'xml'"),
        check(&["frame", "context", "--format", "bogus"], 2, "the formats are xml, md, json"),
        check(&["search", "x", "--mode", "bogus"], 2, "invalid value 'bogus'"),
        check(&["task", "list", "--status", "bogus"], 2, "the statuses are"),
        check(&["archive", "--older-than", "bogus"], 2, "e.g. 30d, 12h, 2weeks"),
        check(&["pack", "--tokens", "-1"], 2, "unexpected argument '-1'"),
        check(&["frame", "tree", "--depth", "-1"], 2, "unexpected argument '-1'"),
        check(&["get", "H-0", "--head", "18446744073709551616"], 2, "number too large"),
        check(&["rank", "--query", "x", "--query-file", "y"], 2, "cannot be used with"),
        check(&["record", "add", "--type", "note", "--text", "x"], 2, "invalid UTF-8")
            .raw_arg(5, b"bad \xff"),
        check(&["context", "x"], 2, "invalid UTF-8").raw_arg(1, b"src/\xff"),
        // Empty and blank text.
        check(&["record", "add", "--type", "note", "--text", ""], 1, "a record needs text"),
        check(&["record", "add", "--type", "note", "--text", " \t\n "], 1, "a record needs text"),
        check(&["record", "add", "--type", "", "--text", "x"], 1, "INVALID_INPUT"),
        check(&["record", "add", "--type", "note", "--text", "x", "--role", "robot"], 1, "the roles are"),
        check(&["pin", "add", ""], 1, "a record needs text"),
        check(&["pin", "add", "   "], 1, "a record needs text"),
        check(&["log", "src", "--title", ""], 1, "a decision needs a title"),
        check(&["log", "src", "--title", "  \n"], 1, "a decision needs a title"),
        check(&["log", "", "--title", "x"], 1, "empty path"),
        check(&["log", "src", "--title", "x", "--tag", ""], 1, "a tag is 1-40 letters"),
        check(&["folder", "describe", "src"], 1, "nothing to change"),
        check(&["folder", "show", ""], 1, "empty path"),
        check(&["frame", "push", ""], 1, "a frame needs a goal"),
        check(&["frame", "push", " \n\t"], 1, "a frame needs a goal"),
        check(&["frame", "push", "x", "--title", ""], 1, "title cannot be empty"),
        check(&["frame", "push", "x", "--type", ""], 1, "a type is 1-40 letters"),
        check(&["task", "add", ""], 1, "title cannot be empty"),
        check(&["task", "add", "x", "--criteria", " "], 1, "criterion cannot be empty"),
        check(&["frame", "goal", ""], 1, "a frame needs a goal").setup(push_frame),
        check(&["task", "fail", "F1", "--reason", ""], 1, "a failure needs a reason").setup(push_frame),
        check(&["frame", "decision", "add", " "], 1, "a decision needs a title").setup(push_frame),
        check(&["frame", "artifact", "add", ""], 1, "empty path").setup(push_frame),
        check(&["rank", "--query", "  "], 1, "the query is empty"),
        // Paths outside the root, through `..`, absolute, through a link.
        check(&["context", "../.."], 1, "OUTSIDE_ROOT"),
        check(&["context", "/etc"], 1, "OUTSIDE_ROOT"),
        check(&["context", "src/../.."], 1, "OUTSIDE_ROOT"),
        check(&["folder", "show", ".."], 1, "OUTSIDE_ROOT"),
        check(&["folder", "relate", "src", "../.."], 1, "OUTSIDE_ROOT"),
        check(&["map", "--focus", "../../etc/passwd"], 1, "OUTSIDE_ROOT"),
        check(&["frame", "artifact", "add", "/etc/passwd"], 1, "OUTSIDE_ROOT").setup(push_frame),
        check(&["secrets", "scan", "../.."], 1, "OUTSIDE_ROOT"),
        check(&["context", "etc"], 1, "UNKNOWN_FOLDER")
            .setup(|repo| std::os::unix::fs::symlink("/etc", repo.path("etc")).unwrap()),
        check(&["context", "src/../src"], 0, "# Context: /src"),
        // Control characters in what an error repeats stay on one line, escaped.
        check(&["context", "a\nb"], 1, "a\\nb: unknown folder"),
        check(&["get", "H-\u{1b}[31mred"], 1, "H-\\x1b[31mred: unknown record"),
        // Unknown things, malformed ids.
        check(&["context", "nope"], 1, "UNKNOWN_FOLDER"),
        check(&["secrets", "scan", "nope"], 1, "UNKNOWN_FOLDER"),
        check(&["map", "--focus", "nope.rs"], 1, "not a source file"),
        check(&["folder", "relate", "src", "src"], 1, "cannot be related to itself"),
        check(&["get", "H-nope"], 1, "UNKNOWN_RECORD"),
        check(&["get", "F-1"], 1, "UNKNOWN_RECORD"),
        check(&["timeline", "H-nope"], 1, "UNKNOWN_RECORD"),
        check(&["pin", "rm", "H-nope"], 1, "UNKNOWN_RECORD"),
        check(&["frame", "show", "F1"], 1, "UNKNOWN_FRAME"),
        check(&["task", "start", "F999"], 1, "UNKNOWN_FRAME"),
        check(&["frame", "push", "x", "--parent", "F-1"], 1, "a frame id is F and a number"),
        check(
            &["frame", "push", "x", "--parent", "F99999999999999999999"],
            1,
            "a frame id is F and a number",
        ),
        check(&["frame", "push", "x", "--parent", "F0"], 1, "a frame id is F and a number"),
        check(&["cache", "clear", "F-1"], 1, "a frame id is F and a number"),
        check(&["frame", "pop"], 1, "NO_CURRENT_FRAME"),
        // Numbers at the edges.
        check(&["map", "--tokens", "0"], 1, "--tokens must be at least 1"),
        check(&["get", &ingested_id("anchor"), "--head", "0"], 0, "[0 of 10 characters]").setup(anchor),
        check(&["timeline", &ingested_id("anchor"), "--before", "1000"], 0, "the anchor").setup(anchor),
        check(
            &["timeline", &ingested_id("anchor"), "--before", "99999999999"],
            1,
            "--before must be at most 1000",
        )
        .setup(anchor),
        // The configuration.
        check(&["status"], 1, "CONFIG_ERROR").setup(config("[scan\n")),
        check(&["status"], 1, "unknown field `bogus_key`").setup(config("[scan]\nbogus_key = 1\n")),
        check(&["status"], 1, "invalid type: string \"yes\"").setup(config("[scan]\nhidden = \"yes\"\n")),
        check(&["status"], 1, "expected u64").setup(config("[budget]\ntotal = -5\n")),
        check(&["status"], 1, "unclosed character class")
            .setup(config("[[secrets.rules]]\nid = \"x\"\nregex = \"([a-\"\nkeywords = [\"a\"]\n")),
        check(&["status"], 1, "needs at least one keyword")
            .setup(config("[[secrets.rules]]\nid = \"x\"\nregex = \"a\"\nkeywords = []\n")),
        check(&["status"], 1, "config.toml: line 1: not UTF-8 text")
            .setup(|repo| std::fs::write(repo.path(".ctx/config.toml"), b"\xff\xfe[scan]\n").unwrap()),
        check(&["status"], 1, "config.toml: Is a directory (os error 21)").setup(|repo| {
            repo.remove(".ctx/config.toml");
            std::fs::create_dir(repo.path(".ctx/config.toml")).unwrap();
        }),
        // The workspace and its database.
        check(&["init"], 1, ".ctx: not a directory").setup(|repo| {
            repo.remove(".ctx");
            repo.write(".ctx", "a file in the way\n");
        }),
        check(&["status"], 1, "NOT_A_WORKSPACE").setup(|repo| {
            repo.remove(".ctx");
            repo.write(".ctx", "a file in the way\n");
        }),
        check(
            &["--root", "/nonexistent", "status"],
            1,
            "/nonexistent: No such file or directory (os error 2)",
        ),
        check(&["--root", "/", "status"], 1, "NOT_A_WORKSPACE"),
        check(&["status"], 1, "NOT_A_CTX_DATABASE")
            .setup(database(|bytes| (0..bytes.len()).map(|i| (i * 7919 % 251) as u8).collect())),
        check(&["status"], 1, "CORRUPT_DATABASE").setup(database(|bytes| bytes[..4096].to_vec())),
        check(&["scan"], 1, "CORRUPT_DATABASE").setup(database(|bytes| bytes[..10_000].to_vec())),
        check(&["status"], 0, "schema v").setup(database(|_| Vec::new())),
        check(&["status"], 1, "NOT_A_CTX_DATABASE").setup(|repo| {
            repo.remove(".ctx/ctx.db");
            let db = rusqlite::Connection::open(repo.path(".ctx/ctx.db")).unwrap();
            db.execute_batch("CREATE TABLE photos (id)").unwrap();
        }),
        check(&["status"], 1, "NEWER_SCHEMA")
            .setup(|repo| repo.db().pragma_update(None, "user_version", 999).unwrap()),
        check(&["status"], 1, "ctx.db: Is a directory (os error 21)").setup(|repo| {
            repo.remove(".ctx/ctx.db");
            std::fs::create_dir(repo.path(".ctx/ctx.db")).unwrap();
        }),
        // Template overrides.
        check(&["build"], 1, "TEMPLATE_ERROR").setup(template("header.md.hbs", "{{#if x}}unclosed\n")),
        check(&["context", "src"], 1, "TEMPLATE_ERROR").setup(template("header.md.hbs", "{{#if x}}\n")),
        check(&["build"], 1, "Partial not found").setup(template("header.md.hbs", "{{> nosuch}}\n")),
        check(&["build"], 1, "Helper not found").setup(template("header.md.hbs", "{{nosuch x}}\n")),
        check(&["build"], 1, "no such template").setup(template("nosuch.md.hbs", "x")),
        check(&["build"], 1, "header.md.hbs: stream did not contain valid UTF-8").setup(|repo| {
            std::fs::create_dir_all(repo.path(".ctx/templates")).unwrap();
            std::fs::write(repo.path(".ctx/templates/header.md.hbs"), b"\xff{{x}}").unwrap();
        }),
        check(&["build"], 1, "IO_ERROR")
            .setup(|repo| std::fs::create_dir_all(repo.path(".ctx/templates/header.md.hbs")).unwrap()),
        // Standard input and files to read.
        check(&["record", "add", "--type", "note", "--text", "-"], 0, "H-").stdin(&b"hello\0world"[..]),
        check(&["record", "add", "--type", "note", "--text", "-"], 1, "stream did not contain valid UTF-8")
            .stdin(&b"bad \xff\xfe"[..]),
        check(&["record", "add", "--type", "note", "--text", "-"], 1, "a record needs text"),
        check(&["record", "add", "--type", "note", "--text", "-"], 0, "H-").stdin("x".repeat(1 << 20)),
        check(&["ingest", "-"], 0, "0 lines"),
        check(&["ingest", "-"], 0, "1 record added, 1 already there")
            .stdin(format!("{GOOD_LINE}{GOOD_LINE}")),
        // A raw NUL near the start: binary, not JSON lines (JSON cannot hold one).
        check(&["ingest", "-"], 1, "binary content")
            .stdin(format!("{{\"type\": \"note\", \"text\": \"raw \0 NUL\"}}\n{GOOD_LINE}")),
        // Far from the start, it only makes its line malformed.
        check(&["ingest", "-"], 0, "1 malformed")
            .stdin(format!("{}{{\"type\": \"note\", \"text\": \"raw \0 NUL\"}}\n", GOOD_LINE.repeat(200))),
        check(&["ingest", "-"], 0, "1 record added").stdin("{\"type\": \"note\", \"text\": \"a\\u0000b\"}\n"),
        check(&["ingest", "-"], 0, "1 record added")
            .stdin(&b"{\"type\": \"note\", \"text\": \"bad \xff\"}\n"[..]),
        check(&["ingest", "-"], 0, "recursion limit exceeded").stdin(deep),
        check(&["ingest", "-"], 0, "recursion limit exceeded").stdin(deep_object),
        check(&["ingest", "nosuch.jsonl"], 1, "nosuch.jsonl: no such file or folder"),
        check(&["ingest", "src"], 1, "src: no .jsonl file in this folder"),
        check(
            &["folder", "describe", "src", "--content-file", "bin.dat"],
            1,
            "stream did not contain valid UTF-8",
        )
        .setup(|repo| std::fs::write(repo.path("bin.dat"), b"\x7fELF\xff\xfe\0\0").unwrap()),
        check(&["rank", "--query-file", "bin.dat"], 1, "stream did not contain valid UTF-8")
            .setup(|repo| std::fs::write(repo.path("bin.dat"), b"\x7fELF\xff\xfe\0\0").unwrap()),
        // Huge arguments.
        check(&["record", "add", "--type", "note", "--text", big], 0, "H-"),
        check(&["frame", "push", big], 0, "pushed F1"),
        check(&["folder", "describe", "src", "--description", big], 0, "described src: word word"),
        check(&["log", "src", "--title", big], 0, "logged D-"),
        // Counts that would size memory, and counts that must be positive.
        check(
            &["search", "x", "--mode", "hybrid", "-k", "18446744073709551615"],
            1,
            "-k must be at most 1000",
        ),
        check(&["search", "x", "-k", "10000000"], 1, "-k must be at most 1000"),
        check(&["rank", "--query", "x", "-k", "18446744073709551615"], 1, "-k must be at most 1000"),
        check(&["rank", "--query", "x", "-k", "0"], 1, "-k must be at least 1"),
        check(&["pack", "--tokens", "0"], 1, "--tokens must be at least 1"),
        check(&["pack"], 1, "CONFIG_ERROR").setup(config("[pack]\ntokens = 0\n")),
        check(&["timeline", &ingested_id("anchor"), "--before", "18446744073709551615"], 1, "at most 1000")
            .setup(anchor),
        check(&["--json", "search", many_words, "--mode", "hybrid"], 0, "\"terms_dropped\": 36"),
        // Input that is not JSON lines at all.
        check(&["ingest", "/dev/zero"], 1, "binary content"),
        check(&["ingest", "/bin/ls"], 1, "binary content"),
        check(&["ingest", "-"], 1, "no line could be read").stdin("nope\n{bad\n"),
        // Templates that include each other without end.
        check(&["build", "--force"], 1, "partials include each other without end").setup(|repo| {
            template("header.md.hbs", "{{> footer.md.hbs}}")(repo);
            template("footer.md.hbs", "{{> header.md.hbs}}")(repo);
        }),
        check(&["build", "--force"], 1, "TEMPLATE_ERROR")
            .setup(template("header.md.hbs", "{{#*inline \"again\"}}{{> again}}{{/inline}}{{> again}}")),
    ]
}

/// What a failed command must leave as it was: the store's rows, or the
/// bytes of a database ctx cannot read.
fn stored(repo: &Repo) -> String {
    let path = repo.path(".ctx/ctx.db");
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let rows = rusqlite::Connection::open_with_flags(&path, flags).and_then(|db| {
        let mut all = Vec::new();
        for sql in [
            "SELECT uid, type, title, body, tags, refs FROM records ORDER BY uid",
            "SELECT kind, coalesce(path, seq), title, description, status FROM nodes ORDER BY 1, 2",
            "SELECT path, size, hash FROM files ORDER BY path",
            "SELECT from_id, to_id, note FROM links ORDER BY 1, 2",
        ] {
            all.extend(query_rows(&db, sql)?);
        }
        Ok(format!("{all:?}"))
    });
    rows.unwrap_or_else(|_| match std::fs::read(&path) {
        Ok(bytes) => format!("bytes {}", blake3::hash(&bytes)),
        Err(err) => format!("unreadable: {err}"),
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim_end().to_string()
}

fn run(repo: &Repo, case: &Case, json: bool) -> Output {
    let mut cmd = repo.cmd(if json { &["--json"] } else { &[] });
    cmd.args(&case.args).stdin(std::process::Stdio::piped());
    cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("spawn ctx");
    let mut input = child.stdin.take().unwrap();
    let bytes = case.stdin.clone();
    // A writer thread: ctx may stop reading (an error) before the end.
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut input, &bytes);
    });
    let out = child.wait_with_output().expect("run ctx");
    writer.join().unwrap();
    out
}

/// Run one row; what is wrong with the outcome, if anything. An error is
/// one line that says each cause once.
fn verify(case: &Case) -> Result<(), String> {
    let repo = Repo::init_unbuilt("//- src/lib.rs\npub fn f() {}\n//- docs/guide.md\n# Guide\n");
    if let Some(setup) = &case.setup {
        setup(&repo);
    }
    let before = stored(&repo);
    let out = run(&repo, case, false);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
    if out.status.code() != Some(case.exit) {
        return Err(format!("exit {} (want {}): {stderr}", out.status, case.exit));
    }
    let is_code = case.expect.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    match case.exit {
        0 => {
            if !stdout.contains(case.expect) && !stderr.contains(case.expect) {
                return Err(format!("no {:?} in the output:\n{stdout}\n{stderr}", case.expect));
            }
        }
        1 => {
            if stderr.lines().count() != 1 || !stderr.starts_with("ctx: error: ") {
                return Err(format!("not a one-line error:\n{stderr}"));
            }
            let parts: Vec<&str> = stderr.split(": ").collect();
            if parts.windows(2).any(|pair| pair[0] == pair[1]) {
                return Err(format!("a cause said twice: {stderr}"));
            }
            let json = run(&repo, case, true);
            let error: serde_json::Value = serde_json::from_slice(&json.stderr)
                .map_err(|err| format!("--json: not one JSON error ({err}): {}", self::stderr(&json)))?;
            let (code, message) = (error["error"]["code"].as_str(), error["error"]["message"].as_str());
            let found = if is_code {
                code == Some(case.expect)
            } else {
                message.is_some_and(|m| m.contains(case.expect))
            };
            if !found || !stderr.contains(message.unwrap_or_default()) {
                return Err(format!("want {:?}, got {error} / {stderr}", case.expect));
            }
        }
        _ => {
            if !stderr.starts_with("error: ") || !stderr.contains(case.expect) {
                return Err(format!("want {:?} in the usage error:\n{stderr}", case.expect));
            }
        }
    }
    if case.exit != 0 && stored(&repo) != before {
        return Err("the store changed".into());
    }
    if case.exit == 0 && repo.integrity() != "ok" {
        return Err(format!("integrity: {}", repo.integrity()));
    }
    Ok(())
}

#[test]
fn hostile_input_gets_a_clean_error_and_loses_nothing() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    // Two at a time: each row has its own repository.
    let (left, right) = cases.split_at(cases.len() / 2);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles = [left, right].map(|half| {
            scope.spawn(move || {
                half.iter()
                    .filter_map(|case| {
                        let shown: Vec<String> = case
                            .args
                            .iter()
                            .map(|a| a.to_string_lossy().chars().take(40).collect())
                            .collect();
                        verify(case).err().map(|err| format!("ctx {shown:?}: {err}"))
                    })
                    .collect::<Vec<_>>()
            })
        });
        handles.into_iter().flat_map(|handle| handle.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
