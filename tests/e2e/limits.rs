//! No input crashes ctx: numbers too big or zero, endless or binary input,
//! templates that include each other, a read-only or corrupt store. Each
//! ends with a one-line error and exit code 1 (never a panic or an abort).

use crate::util::Repo;

fn repo() -> Repo {
    Repo::init_unbuilt("//- README.md\nA shop.\n//- src/pool.py\ndef pool():\n    return 1\n")
}

/// `ctx --json ARGS` fails with error code `code`; the message.
fn fails_with(repo: &Repo, args: &[&str], code: &str) -> String {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let err = repo.fail(&all);
    let value: serde_json::Value = serde_json::from_str(&err).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(value["error"]["code"], code, "{args:?}: {err}");
    value["error"]["message"].as_str().unwrap().to_string()
}

/// `n` records (`hello pool number 0`, …) from `ctx ingest`.
fn ingest_notes(repo: &Repo, n: usize) {
    let lines: String =
        (0..n).map(|i| format!("{{\"type\":\"note\",\"text\":\"hello pool number {i}\"}}\n")).collect();
    repo.write("notes.jsonl", &lines);
    repo.ok(&["ingest", "notes.jsonl"]);
}

#[test]
fn counts_that_size_memory_have_a_limit_and_name_it() {
    let repo = repo();
    ingest_notes(&repo, 20);
    let id = repo.json(&["search", "hello"])["results"][0]["id"].as_str().unwrap().to_string();
    let huge = u64::MAX.to_string();
    for k in [huge.as_str(), "10000000", "1001"] {
        let message = fails_with(&repo, &["search", "--mode", "hybrid", "hello", "-k", k], "INVALID_INPUT");
        assert!(message.contains("-k") && message.contains("1000"), "{message}");
    }
    assert_eq!(repo.json(&["search", "--mode", "hybrid", "hello", "-k", "1000"])["hits"], 20);
    let message = fails_with(&repo, &["rank", "-k", &huge, "--query", "pool"], "INVALID_INPUT");
    assert!(message.contains("-k") && message.contains("1000"), "{message}");
    for side in ["--before", "--after"] {
        let message = fails_with(&repo, &["timeline", &id, side, &huge], "INVALID_INPUT");
        assert!(message.contains(side) && message.contains("1000"), "{message}");
    }
    let timeline = repo.json(&["timeline", &id, "--before", "1000", "--after", "0"]);
    assert_eq!(timeline["results"].as_array().unwrap().last().unwrap()["id"], id);
}

#[test]
fn a_count_of_zero_is_an_error_everywhere_one_must_be_positive() {
    let repo = repo();
    ingest_notes(&repo, 3);
    for args in [
        &["search", "hello", "-k", "0"][..],
        &["rank", "-k", "0", "--query", "pool"],
        &["pack", "--tokens", "0"],
        &["map", "--tokens", "0"],
    ] {
        let message = fails_with(&repo, args, "INVALID_INPUT");
        assert!(message.contains("must be at least 1"), "{args:?}: {message}");
    }
    repo.write(".ctx/config.toml", "[pack]\ntokens = 0\n");
    let message = fails_with(&repo, &["pack"], "CONFIG_ERROR");
    assert!(message.contains("[pack] tokens"), "{message}");
}

#[test]
fn a_query_of_thousands_of_words_is_answered_quickly_and_says_what_it_dropped() {
    let repo = repo();
    ingest_notes(&repo, 3000);
    // 5,000 words, 100 of them distinct: each once, and only the first 64.
    let query: Vec<String> =
        (0..5000).map(|i| if i % 2 == 0 { "hello".into() } else { format!("w{}", (i / 2) % 99) }).collect();
    let mut args = vec!["search", "--mode", "hybrid", "-k", "5", "--"];
    args.extend(query.iter().map(String::as_str));
    let started = std::time::Instant::now();
    let response = repo.json(&args);
    let elapsed = started.elapsed();
    // Before terms were deduplicated and capped, this took minutes (quadratic in the words).
    assert!(elapsed < std::time::Duration::from_secs(5), "{elapsed:?}");
    let retrieval = &response["retrieval"];
    assert_eq!(
        (retrieval["query_terms"].as_u64(), retrieval["terms_dropped"].as_u64()),
        (Some(64), Some(36))
    );
    assert_eq!(response["hits"], 5, "{response}");
}

/// Template overrides whose partials never stop including each other.
const CYCLES: [(&str, &str, &str); 2] = [
    ("header.md.hbs", "{{> footer.md.hbs}}", "{{> header.md.hbs}}"),
    ("frame.xml.hbs", "{{> current-frame.xml.hbs}}", "{{> frame.xml.hbs}}"),
];

#[test]
fn templates_that_include_each_other_are_a_template_error() {
    let repo = repo();
    repo.ok(&["frame", "push", "Build the API"]);
    repo.ok(&["frame", "push", "Add the routes"]);
    let partners = [("header.md.hbs", "footer.md.hbs"), ("frame.xml.hbs", "current-frame.xml.hbs")];
    for ((first, text, partner_text), (_, partner)) in CYCLES.iter().zip(partners) {
        let command: &[&str] = if first.ends_with(".xml.hbs") { &["frame", "context"] } else { &["build"] };
        repo.write(&format!(".ctx/templates/{first}"), text);
        repo.write(&format!(".ctx/templates/{partner}"), partner_text);
        let message = fails_with(&repo, command, "TEMPLATE_ERROR");
        assert!(message.contains(first) && message.contains(partner), "{message}");
        repo.remove(".ctx/templates");
        // An inline partial that includes itself.
        let looping = "{{#*inline \"again\"}}more {{> again}}{{/inline}}{{> again}}\n";
        repo.write(&format!(".ctx/templates/{first}"), looping);
        let message = fails_with(&repo, command, "TEMPLATE_ERROR");
        assert!(message.contains(first) && message.contains("again"), "{message}");
        repo.remove(".ctx/templates");
        repo.ok(command);
    }
}

#[test]
fn an_overlong_line_is_skipped_and_an_endless_one_stops_the_ingest() {
    let repo = repo();
    let good = "{\"type\":\"note\",\"text\":\"kept\"}\n";
    let output = repo.run_fed(&["ingest", "-"], move |input| {
        input.write_all(good.as_bytes())?;
        let mut long = br#"{"type":"note","text":""#.to_vec();
        long.resize(9 << 20, b'x');
        input.write_all(&long)?;
        input.write_all(b"\"}\n")?;
        input.write_all(good.replace("kept", "kept too").as_bytes())
    });
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("2 records added") && stdout.contains("1 malformed"), "{stdout}");
    assert!(stderr.contains("-:2: longer than 8 MiB"), "{stderr}");

    // A line that never ends: no newline ever comes.
    let output = repo.run_fed(&["ingest", "-"], |input| {
        let chunk = vec![b'x'; 1 << 20];
        loop {
            input.write_all(&chunk)?;
        }
    });
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("256 MiB"), "{stderr}");
    assert_eq!(repo.json(&["status"])["records"], 2);
}

#[test]
fn binary_input_or_input_with_no_good_line_is_an_error() {
    let repo = repo();
    for input in ["/dev/zero", "/bin/ls"] {
        let message = fails_with(&repo, &["ingest", input], "INVALID_INPUT");
        assert!(message.contains(input) && message.contains("binary"), "{message}");
    }
    repo.write("bad.jsonl", "not json\n{\"type\":\"note\"}\n\n");
    let message = fails_with(&repo, &["ingest", "bad.jsonl"], "INVALID_INPUT");
    assert!(message.contains("bad.jsonl") && message.contains("no line"), "{message}");
    // Some good lines: success, the bad ones reported.
    repo.write("mixed.jsonl", "not json\n{\"type\":\"note\",\"text\":\"fine\"}\n");
    let report = repo.json(&["ingest", "mixed.jsonl"]);
    assert_eq!((report["added"].as_u64(), report["errors"][0]["line"].as_u64()), (Some(1), Some(1)));
    // Nothing at all is no error: there was nothing to read.
    repo.write("empty.jsonl", "");
    assert_eq!(repo.json(&["ingest", "empty.jsonl"])["lines"], 0);
}

/// Runs as an unprivileged user too (`scripts/test`: `e2e unreadable
/// unwritable`); root writes whatever the permissions say, so there it skips itself.
#[test]
fn an_unwritable_store_serves_reads_and_refuses_writes() {
    use std::os::unix::fs::PermissionsExt;
    let repo = repo();
    ingest_notes(&repo, 5);
    let set = |path: &str, mode: u32| {
        std::fs::set_permissions(repo.path(path), std::fs::Permissions::from_mode(mode)).unwrap();
    };
    set(".ctx/ctx.db", 0o444);
    set(".ctx", 0o555);
    if std::fs::OpenOptions::new().append(true).open(repo.path(".ctx/ctx.db")).is_ok() {
        set(".ctx", 0o755);
        eprintln!("skipped: this user writes files without permission");
        return;
    }
    let status = repo.run(&["--json", "status"]);
    let search = repo.run(&["--json", "search", "hello", "--mode", "hybrid"]);
    let write = repo.run(&["--json", "record", "add", "--type", "note", "--text", "x"]);
    set(".ctx", 0o755);
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).to_string();
    assert!(status.status.success(), "{}", stderr(&status));
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["records"], 5);
    assert!(search.status.success(), "{}", stderr(&search));
    let search: serde_json::Value = serde_json::from_slice(&search.stdout).unwrap();
    assert_eq!(search["hits"], 5);
    assert_eq!(write.status.code(), Some(1));
    let err: serde_json::Value = serde_json::from_str(&stderr(&write)).unwrap();
    assert_eq!(err["error"]["code"], "READ_ONLY", "{err}");
}

#[test]
fn corruption_found_after_opening_is_corrupt_database() {
    let repo = repo();
    ingest_notes(&repo, 3000);
    repo.ok(&["search", "hello"]);
    // Overwrite the start of every page in the second half of the file
    // (records and their index; the schema at the start stays readable).
    let path = repo.path(".ctx/ctx.db");
    let mut bytes = std::fs::read(&path).unwrap();
    let len = bytes.len();
    for page in (len / 2 / 4096..len / 4096).map(|p| p * 4096) {
        bytes[page..page + 64].fill(0xA5);
    }
    std::fs::write(&path, bytes).unwrap();
    let message = fails_with(&repo, &["search", "hello"], "CORRUPT_DATABASE");
    assert!(message.contains("corrupt"), "{message}");
}
