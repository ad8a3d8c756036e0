//! `ctx eval`: cases from a scripted git history, the figures' consistency,
//! errors, and a user's repository left exactly as it was.

use serde_json::Value;

use crate::util::{Repo, strings};

/// Write `files` and commit them all with `message`.
fn commit(repo: &Repo, files: &[(&str, &str)], message: &str) {
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", message]);
}

const TRAILERS: &str = "Parse nested expressions in the parser\n\nparse_expression recursed on the wrong side.\n\n\
                        Signed-off-by: Dev <dev@example.com>\nCo-authored-by: Other <other@example.com>\n";

/// A repository whose history holds three cases among commits that are none:
/// a root commit, a merge, a commit modifying five files, one only adding a
/// file, one modifying no source file.
fn scripted() -> Repo {
    let repo = Repo::new();
    repo.git(&["init", "-q"]);
    commit(
        &repo,
        &[
            (
                "src/lexer.rs",
                "/// Split text into tokens.\npub fn tokenize(text: &str) -> Vec<String> {\n    text.split(' ').map(String::from).collect()\n}\n",
            ),
            (
                "src/parser.rs",
                "use crate::lexer::tokenize;\n\npub struct Parser { tokens: Vec<String> }\n\npub fn parse_expression(text: &str) -> Parser {\n    Parser { tokens: tokenize(text) }\n}\n",
            ),
            (
                "src/cache.rs",
                "pub struct Cache { entries: Vec<u64> }\n\nimpl Cache {\n    pub fn evict(&mut self) { self.entries.pop(); }\n}\n",
            ),
            ("src/render.rs", "pub fn render_page(title: &str) -> String { title.to_string() }\n"),
            ("src/config.rs", "pub struct Config { pub width: usize }\n"),
            (
                "src/main.rs",
                "mod cache;\nmod config;\nmod lexer;\nmod parser;\nmod render;\n\nfn main() {}\n",
            ),
            ("README.md", "# fixture\n"),
        ],
        "Start the project",
    );
    commit(
        &repo,
        &[(
            "src/lexer.rs",
            "/// Split text into tokens, comments left out.\npub fn tokenize(text: &str) -> Vec<String> {\n    text.split(' ').filter(|t| !t.starts_with('#')).map(String::from).collect()\n}\n",
        )],
        "Make tokenize skip comments in src/lexer.rs",
    );
    repo.git(&["checkout", "-q", "-b", "side"]);
    commit(
        &repo,
        &[(
            "src/cache.rs",
            "pub struct Cache { entries: Vec<u64> }\n\nimpl Cache {\n    pub fn evict(&mut self) { self.entries.remove(0); }\n}\n",
        )],
        "Evict the oldest cache entry first",
    );
    repo.git(&["checkout", "-q", "main"]);
    commit(
        &repo,
        &[("src/config.rs", "pub struct Config { pub width: usize, pub height: usize }\n")],
        "Give the config a height",
    );
    repo.git(&["merge", "-q", "--no-ff", "-m", "Merge branch side", "side"]);
    let five: Vec<(String, String)> = ["lexer", "parser", "cache", "render", "config"]
        .iter()
        .map(|name| {
            let path = format!("src/{name}.rs");
            let text = std::fs::read_to_string(repo.path(&path)).unwrap() + "// reformatted\n";
            (path, text)
        })
        .collect();
    let five: Vec<(&str, &str)> = five.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    commit(&repo, &five, "Reformat every module");
    commit(&repo, &[("src/extra.rs", "pub fn extra() {}\n")], "Add an extra module");
    commit(
        &repo,
        &[
            (
                "src/parser.rs",
                "use crate::lexer::tokenize;\n\npub struct Parser { tokens: Vec<String> }\n\npub fn parse_expression(text: &str) -> Parser {\n    let tokens = tokenize(text);\n    Parser { tokens }\n}\n",
            ),
            ("tests/nested.rs", "#[test]\nfn nested() {}\n"),
        ],
        TRAILERS,
    );
    commit(&repo, &[("README.md", "# fixture\n\nA parser.\n")], "Describe the project");
    repo
}

fn case<'a>(report: &'a Value, subject: &str) -> &'a Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["subject"] == subject)
        .unwrap_or_else(|| panic!("no case {subject}"))
}

#[test]
fn eval_takes_its_cases_from_the_history_and_reports_consistent_figures() {
    let repo = scripted();
    let report = repo.json(&["eval", "--cases", "--tokens", "512,4096"]);

    let mut subjects = strings(&Value::Array(
        report["cases"].as_array().unwrap().iter().map(|c| c["subject"].clone()).collect(),
    ));
    subjects.sort();
    // The side branch's commit is one (the merge is not); the config commit
    // modified one source file; the rest modified none, only added, or five.
    assert_eq!(
        subjects,
        [
            "Evict the oldest cache entry first",
            "Give the config a height",
            "Make tokenize skip comments in src/lexer.rs",
            "Parse nested expressions in the parser",
        ]
    );
    // Every non-merge commit was read (fewer cases than asked for).
    assert_eq!(report["commits_read"], 8);
    assert_eq!(report["head"].as_str().unwrap(), repo.git(&["rev-parse", "HEAD"]).trim());

    let parser = case(&report, "Parse nested expressions in the parser");
    assert_eq!(
        parser["message"],
        "Parse nested expressions in the parser\n\nparse_expression recursed on the wrong side."
    );
    assert_eq!(strings(&parser["changed"]), ["src/parser.rs"], "the added test is no answer");
    let sha = parser["sha"].as_str().unwrap();
    assert_eq!(parser["parent"].as_str().unwrap(), repo.git(&["rev-parse", &format!("{sha}^")]).trim());

    // The definitions it changed, in the parent: the function whose body changed.
    let changed_definitions = |case: &Value| -> Vec<String> {
        let defs = case["changed_definitions"].as_array().unwrap().iter();
        defs.map(|d| format!("{}:{} {}", d["path"].as_str().unwrap(), d["line"], d["name"].as_str().unwrap()))
            .collect()
    };
    assert_eq!(changed_definitions(parser), ["src/parser.rs:5 parse_expression"]);
    // A method, not the impl it is in.
    assert_eq!(
        changed_definitions(case(&report, "Evict the oldest cache entry first")),
        ["src/cache.rs:4 evict"]
    );

    // A task naming the file by its path finds it first.
    let lexer = case(&report, "Make tokenize skip comments in src/lexer.rs");
    let rank = lexer["results"].as_array().unwrap().iter().find(|r| r["method"] == "rank").unwrap();
    assert_eq!(rank["rank"], 1);
    assert_eq!(rank["top"][0], "src/lexer.rs");

    // Each result's rank points at a modified file in its top list.
    for case in report["cases"].as_array().unwrap() {
        let changed = strings(&case["changed"]);
        for result in case["results"].as_array().unwrap() {
            let top = strings(&result["top"]);
            match result["rank"].as_u64() {
                Some(r) if r <= 10 => {
                    assert!(changed.contains(&top[r as usize - 1]), "{result}");
                    assert!(top[..r as usize - 1].iter().all(|f| !changed.contains(f)), "{result}");
                }
                Some(_) => {}
                None => assert!(top.iter().all(|f| !changed.contains(f)), "{result}"),
            }
        }
    }

    // The map's place for the first changed definition points at one in its list of definitions.
    for case in report["cases"].as_array().unwrap() {
        let changed = changed_definitions(case);
        for result in case["results"].as_array().unwrap().iter().filter(|r| r["method"] == "map") {
            let top = strings(&result["top_definitions"]);
            assert!(!top.is_empty(), "{result}");
            match result["definition_rank"].as_u64() {
                Some(r) => {
                    assert!(changed.contains(&top[r as usize - 1]), "{case}");
                    assert!(top[..r as usize - 1].iter().all(|d| !changed.contains(d)), "{case}");
                }
                None => assert!(top.iter().all(|d| !changed.contains(d)), "{case}"),
            }
        }
    }

    let methods: Vec<String> = report["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{} {}", m["method"].as_str().unwrap(), m["tokens"]))
        .collect();
    assert_eq!(methods, ["rank null", "bm25 null", "map 512", "map 4096"]);
    for m in report["methods"].as_array().unwrap() {
        let f = |key: &str| m[key].as_f64().unwrap_or_else(|| panic!("{key} in {m}"));
        assert_eq!(m["n"], 4);
        assert!(f("r_at_1") <= f("r_at_5") && f("r_at_5") <= f("r_at_10") && f("r_at_10") <= 1.0, "{m}");
        assert!(f("r_at_1") <= f("mrr") && f("mrr") <= 1.0, "{m}");
        assert!(f("mean_ms") >= 0.0, "{m}");
        // MRR is the mean of the cases' reciprocal ranks.
        let mrr: f64 = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let r = c["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["method"] == m["method"] && r["tokens"] == m["tokens"])
                    .unwrap();
                r["rank"].as_f64().map_or(0.0, |r| 1.0 / r)
            })
            .sum::<f64>()
            / 4.0;
        assert!((f("mrr") - mrr).abs() < 1e-9, "{m}");
        // The map's figures for definitions too, over the cases that changed one.
        let defs = &m["definitions"];
        match m["method"].as_str() {
            Some("map") => {
                let changing = report["cases"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|c| c["changed_definitions"] != Value::Array(vec![]));
                assert_eq!(defs["n"].as_u64(), Some(changing.count() as u64), "{m}");
                assert!(defs["r_at_1"].as_f64().unwrap() <= defs["r_at_10"].as_f64().unwrap(), "{m}");
            }
            _ => assert!(defs.is_null(), "{m}"),
        }
    }
    // A task naming the function it changes shows it first.
    let lexer_map = lexer["results"].as_array().unwrap().iter().find(|r| r["method"] == "map").unwrap();
    assert_eq!(changed_definitions(lexer), ["src/lexer.rs:2 tokenize"]);
    assert_eq!(lexer_map["definition_rank"], 1, "{lexer_map}");

    // No signals unless asked for.
    assert!(rank.get("signals").is_none(), "{rank}");
    // With --signals, rank's files with what scored them, its order, the changed file among them.
    let report = repo.json(&["eval", "--cases", "--signals"]);
    for case in report["cases"].as_array().unwrap() {
        let rank = case["results"].as_array().unwrap().iter().find(|r| r["method"] == "rank").unwrap();
        let signals = rank["signals"].as_array().unwrap_or_else(|| panic!("{rank}"));
        let paths = strings(&Value::Array(signals.iter().map(|f| f["path"].clone()).collect()));
        assert_eq!(paths[..rank["top"].as_array().unwrap().len()], strings(&rank["top"])[..], "{rank}");
        assert!(strings(&case["changed"]).iter().all(|c| paths.contains(c)), "{case}");
        let scores: Vec<f64> = signals.iter().map(|f| f["score"].as_f64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        for key in ["lexical", "graph", "similar", "recency", "named", "area", "mentioned", "defines"] {
            assert!(signals[0][key].is_number(), "{key} in {}", signals[0]);
        }
        let other = case["results"].as_array().unwrap().iter().find(|r| r["method"] == "bm25").unwrap();
        assert!(other.get("signals").is_none(), "{other}");
    }
    let usage = repo.run(&["eval", "--signals"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("--cases"));
    assert!(repo.fail(&["eval", "--cases", "--signals"]).contains("--json"));

    // Without --cases, the figures alone; --commits takes the newest.
    let short = repo.json(&["eval", "--commits", "2"]);
    assert!(short.get("cases").is_none());
    assert_eq!(short["methods"][0]["n"], 2);
    // README, parser (a case), extra, reformat, then the config or the cache commit (a case).
    assert_eq!(short["commits_read"], 5, "reading stops at the second case");
}

#[test]
fn eval_leaves_the_repository_as_it_was() {
    let repo = scripted();
    // A dirty work tree: a staged change, an unstaged one, an untracked file.
    repo.write("src/render.rs", "pub fn render_page() {}\n");
    repo.git(&["add", "src/render.rs"]);
    repo.write("src/config.rs", "// unstaged\n");
    repo.write("notes.txt", "untracked\n");
    let state = || {
        [
            repo.git(&["status", "--porcelain", "--untracked-files=all"]),
            repo.git(&["for-each-ref"]),
            repo.git(&["rev-parse", "HEAD"]),
            repo.git(&["symbolic-ref", "HEAD"]),
            repo.git(&["ls-files", "--stage"]),
            repo.git(&["diff"]),
            repo.git(&["diff", "--cached"]),
        ]
    };
    let before = state();
    let temp = tempfile::tempdir().unwrap();
    // A scratch folder a killed run left: its process is gone.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    let leftover = temp.path().join(format!("ctx-eval-{}-0", child.id()));
    std::fs::create_dir_all(leftover.join("repo")).unwrap();

    // Run from elsewhere with --root.
    let elsewhere = Repo::new();
    let tmpdir = temp.path().to_str().unwrap();
    let out = elsewhere.ok_with(&["--root", repo.root().to_str().unwrap(), "eval"], &[("TMPDIR", tmpdir)]);
    assert!(out.contains("rank") && out.contains("map 4096"), "{out}");

    assert_eq!(state(), before);
    assert!(!repo.path(".ctx").exists(), "eval needs no workspace and makes none");
    let left: Vec<_> = std::fs::read_dir(temp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
}

#[test]
fn eval_prints_an_aligned_table() {
    let repo = scripted();
    let out = repo.ok(&["eval", "--tokens", "1024,4096"]);
    let lines: Vec<&str> = out.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("method")).expect(&out);
    assert_eq!(
        lines[header].split_whitespace().collect::<Vec<_>>(),
        ["method", "R@1", "R@5", "R@10", "MRR", "n", "ms/case"]
    );
    let rows = &lines[header + 1..header + 5];
    let labels: Vec<&str> = rows.iter().map(|r| r[..10].trim()).collect();
    assert_eq!(labels, ["rank", "bm25", "map 1024", "map 4096"]);
    // Every row's columns end where the header's do.
    for row in rows {
        assert_eq!(row.len(), lines[header].len(), "{out}");
    }
    assert!(lines[header + 5].starts_with("R@K:"), "{out}");
    // Then the map's figures for the definitions the commits changed.
    let defs = lines.iter().position(|l| l.starts_with("defs ")).expect(&out);
    assert_eq!(
        lines[defs].split_whitespace().collect::<Vec<_>>(),
        ["defs", "R@1", "R@5", "R@10", "MRR", "n"]
    );
    let rows = &lines[defs + 1..defs + 3];
    assert_eq!(rows.iter().map(|r| r[..10].trim()).collect::<Vec<_>>(), ["map 1024", "map 4096"]);
    assert!(rows.iter().all(|row| row.len() == lines[defs].len()), "{out}");
    assert!(lines[defs + 3].starts_with("defs:"), "{out}");
}

#[test]
fn eval_refuses_what_has_no_history() {
    let plain = Repo::with_files("//- src/lib.rs\npub fn f() {}\n");
    let err: Value = serde_json::from_str(&plain.fail(&["--json", "eval"])).unwrap();
    assert_eq!(err["error"]["code"], "NOT_A_GIT_REPOSITORY");
    assert!(plain.fail(&["eval"]).contains("not in a git repository"));

    plain.git(&["init", "-q"]);
    let err: Value = serde_json::from_str(&plain.fail(&["--json", "eval"])).unwrap();
    assert_eq!(err["error"]["code"], "NO_COMMITS");

    let origin = scripted();
    let shallow = Repo::new();
    let url = format!("file://{}", origin.root().display());
    shallow.git(&["clone", "-q", "--depth", "1", &url, "."]);
    let err: Value = serde_json::from_str(&shallow.fail(&["--json", "eval"])).unwrap();
    assert_eq!(err["error"]["code"], "SHALLOW_REPOSITORY");

    for args in [["eval", "--commits", "0"], ["eval", "--tokens", "0"]] {
        assert_eq!(origin.run(&args).status.code(), Some(2), "{args:?}");
    }
    let err: Value = serde_json::from_str(&origin.fail(&["--json", "eval", "--commits", "10001"])).unwrap();
    assert_eq!(err["error"]["code"], "INVALID_INPUT");
}

#[test]
fn eval_skips_a_commit_whose_parent_cannot_be_checked_out() {
    let repo = scripted();
    // A blob every case's parent holds, gone (as a partial clone's never fetched).
    let blob = repo.git(&["rev-parse", "HEAD~1:README.md"]).trim().to_string();
    repo.remove(&format!(".git/objects/{}/{}", &blob[..2], &blob[2..]));
    let out = repo.run(&["--json", "eval"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["skipped"].as_array().unwrap().len(), 4, "{report}");
    assert!(report["skipped"][0]["reason"].as_str().unwrap().starts_with("git checkout:"), "{report}");
    assert_eq!(report["methods"][0]["n"], 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 eligible commits skipped"));
}
