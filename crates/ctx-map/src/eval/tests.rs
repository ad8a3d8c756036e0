//! Cases from a history, and the figures over them.
//! Declared `#[cfg(test)] mod tests;` in `eval.rs`: compiled for tests only.

use super::*;

#[test]
fn trailers_and_a_pull_request_number_leave_the_task() {
    let message = "Fix Parser::next on empty input (#1234)\n\nThe lexer returned None early.\n\n\
                       Signed-off-by: A Person <a@example.com>\nCo-authored-by: B <b@example.com>\n  wrapped\n";
    assert_eq!(task_of(message), "Fix Parser::next on empty input\n\nThe lexer returned None early.");
    // The subject alone is never a trailer block, nor a paragraph with prose in it.
    assert_eq!(task_of("Docs: explain the cache\n"), "Docs: explain the cache");
    assert_eq!(
        task_of("Fix x\n\nNote: this matters because y\nand so on.\n"),
        "Fix x\n\nNote: this matters because y\nand so on."
    );
    assert_eq!(task_of("Fix x\n\nSee https://example.com/a\n"), "Fix x\n\nSee https://example.com/a");
    // Only a number in the parentheses is a pull request.
    assert_eq!(task_of("Keep (#tag) and (#12a)"), "Keep (#tag) and (#12a)");
    assert_eq!(task_of("Release\r\n\r\n(cherry picked from commit abc)\r\n"), "Release");
    assert_eq!(task_of("Signed-off-by: only\n"), "Signed-off-by: only");
    assert_eq!(task_of("\n\n"), "");
}

fn log(text: &str) -> Vec<LogCommit> {
    let mut commits = Vec::new();
    parse_log(text.as_bytes(), |c| {
        commits.push(c);
        true
    })
    .unwrap();
    commits
}

#[test]
fn the_log_is_read_commit_by_commit_and_cases_are_chosen() {
    let sha = |c: char| c.to_string().repeat(40);
    let text = format!(
        "\x1e{a} {p}\nann@example.org\nFix the lexer\n\nSigned-off-by: x\n\0\nM\0src/lexer.rs\0A\0src/new.rs\0M\0README.md\0\
             \x1e{b} {p}\nann@example.org\nTouch five\n\0\nM\0a.py\0M\0b.py\0M\0c.py\0M\0d.py\0M\0e.py\0\
             \x1e{c} {p}\nann@example.org\nOnly adds\n\0\nA\0src/added.rs\0D\0src/gone.rs\0\
             \x1e{d}\nann@example.org\nRoot commit\n\0\nM\0src/lib.rs\0\
             \x1e{e} {p}\n\nEmpty\n\0\
             \x1e{f} {p}\nbob@example.org\nweird name\n\0\nM\0dir with space/ü.ts\0",
        a = sha('a'),
        b = sha('b'),
        c = sha('c'),
        d = sha('d'),
        e = sha('e'),
        f = sha('f'),
        p = sha('9'),
    );
    let commits = log(&text);
    assert_eq!(commits.len(), 6);
    assert_eq!(
        commits[0].files,
        [
            ("M".into(), "src/lexer.rs".into()),
            ("A".into(), "src/new.rs".into()),
            ("M".into(), "README.md".into())
        ]
    );
    assert!(commits[4].files.is_empty());
    let cases: Vec<Eligible> = commits.into_iter().filter_map(eligible).collect();
    // Five modified files, only an addition, no parent: no case.
    assert_eq!(cases.len(), 2);
    assert_eq!(
        cases[0],
        Eligible {
            sha: sha('a'),
            parent: sha('9'),
            author: "ann@example.org".into(),
            task: "Fix the lexer".into(),
            changed: vec!["src/lexer.rs".into()]
        }
    );
    assert_eq!(cases[1].changed, ["dir with space/ü.ts"]);

    // Stopping early reads no further.
    let mut seen = 0;
    parse_log(text.as_bytes(), |_| {
        seen += 1;
        seen < 2
    })
    .unwrap();
    assert_eq!(seen, 2);
}

#[test]
fn bm25_is_okapi_as_rank_bm25_computes_it() {
    let docs: Vec<String> =
        ["the lexer reads tokens", "the parser reads the lexer", "the cache", "nothing here at all"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    let scores = bm25_scores(&docs, "Lexer TOKENS");
    // By hand: N 4, average length 3.75; lexer in 2 documents → IDF ln(2.5/2.5) = 0;
    // tokens in 1 → ln(3.5/1.5); document 0 has 4 words.
    let idf = (3.5f64 / 1.5).ln();
    let expected = idf * 2.5 / (1.0 + 1.5 * (0.25 + 0.75 * 4.0 / 3.75));
    assert!((scores[0] - expected).abs() < 1e-12, "{scores:?}");
    assert_eq!(&scores[1..], [0.0, 0.0, 0.0]);
    // `the` is in 3 of 4 documents: a negative IDF, replaced by a quarter of the mean IDF.
    let the = bm25_scores(&docs, "the");
    assert!(the[..3].iter().all(|&s| s > 0.0) && the[3] == 0.0, "{the:?}");
    assert_eq!(bm25_scores(&[], "x"), Vec::<f64>::new());
    assert_eq!(bm25_scores(&["".into()], "x"), [0.0]);
}

#[test]
fn figures_are_shares_of_cases() {
    let rank = Method { method: MethodName::Rank, tokens: None };
    let map = Method { method: MethodName::Map, tokens: Some(1024) };
    // A case whose first changed file came at `r`, and for the map its first changed
    // definition at `d` (`None` with `changed: false`: the commit changed no definition).
    let case = |r: Option<usize>, d: Option<usize>, changed: bool| {
        let result = |method| CaseResult {
            method,
            rank: r,
            top: Vec::new(),
            ms: 2.0,
            signals: None,
            definition_rank: d.filter(|_| method == map),
            top_definitions: Vec::new(),
        };
        let changed_def = ChangedDef { path: "a.py".into(), line: 1, name: "f".into() };
        Case {
            sha: String::new(),
            parent: String::new(),
            subject: String::new(),
            message: String::new(),
            changed: Vec::new(),
            changed_definitions: if changed { vec![changed_def] } else { Vec::new() },
            results: vec![result(rank), result(map)],
        }
    };
    let cases = [
        case(Some(1), Some(2), true),
        case(Some(4), None, true),
        case(Some(7), None, false),
        case(None, Some(12), true),
    ];
    let summary = &summarize(&cases, &[rank, map]);
    let files = &summary[0];
    assert_eq!((files.n, files.r_at_1, files.r_at_5, files.r_at_10), (4, 0.25, 0.5, 0.75));
    assert!((files.mrr - (1.0 + 0.25 + 1.0 / 7.0) / 4.0).abs() < 1e-12);
    assert_eq!(files.mean_ms, 2.0);
    assert!(files.definitions.is_none());
    // Over the three cases that changed a definition.
    let defs = summary[1].definitions.as_ref().unwrap();
    assert_eq!((defs.n, defs.r_at_1, defs.r_at_5, defs.r_at_10), (3, 0.0, 1.0 / 3.0, 1.0 / 3.0));
    assert!((defs.mrr - (0.5 + 1.0 / 12.0) / 3.0).abs() < 1e-12);
    assert_eq!(summarize(&[], &[rank])[0].mrr, 0.0);
}
