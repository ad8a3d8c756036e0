use proptest::prelude::*;

use super::*;

const V1: Section = Section { version: 1, body: "## ctx\n\nRead `.ctx/boot.md`." };

fn region(version: u32, body: &str, eol: &str) -> String {
    String::from_utf8(render_region(Section { version, body }, eol, true)).unwrap()
}

fn ok(existing: &str, section: Section) -> (String, Outcome) {
    let edit = splice(Some(existing.as_bytes()), section, false).unwrap();
    (String::from_utf8(edit.bytes).unwrap(), edit.outcome)
}

fn broken(existing: &str) -> Vec<Problem> {
    match splice(Some(existing.as_bytes()), V1, false) {
        Err(SpliceError::Broken(problems)) => problems,
        other => panic!("not broken: {other:?}"),
    }
}

#[test]
fn a_missing_file_holds_the_section_alone() {
    let edit = splice(None, V1, false).unwrap();
    assert_eq!(edit.outcome, Outcome::Created);
    let text = String::from_utf8(edit.bytes).unwrap();
    assert_eq!(text, region(1, V1.body, "\n"));
    assert!(text.starts_with("<!-- BEGIN CTX MANAGED SECTION v1 -->\n<!-- Do not edit"));
    assert!(text.ends_with("Read `.ctx/boot.md`.\n\n<!-- END CTX MANAGED SECTION -->\n"));
}

#[test]
fn appending_adds_a_blank_line_and_nothing_else_outside() {
    let (text, outcome) = ok("# Mine\n\nRules.\n", V1);
    assert_eq!(outcome, Outcome::Appended);
    assert_eq!(text, format!("# Mine\n\nRules.\n\n{}", region(1, V1.body, "\n")));
    // No final newline: the last line is ended first.
    let (text, _) = ok("# Mine\r\nRules.", V1);
    assert_eq!(text, format!("# Mine\r\nRules.\r\n\r\n{}", region(1, V1.body, "\r\n")));
    // Already ending with a blank line: nothing added.
    let (text, _) = ok("a\n\n", V1);
    assert_eq!(text, format!("a\n\n{}", region(1, V1.body, "\n")));
    let (text, _) = ok("", V1);
    assert_eq!(text, region(1, V1.body, "\n"));
}

#[test]
fn replacing_keeps_the_bom_crlf_and_missing_final_newline() {
    let old = region(1, "old body", "\r\n");
    let old = old.trim_end_matches("\r\n");
    let file = format!("\u{FEFF}{old}\r\nafter\r\nend");
    let (text, outcome) = ok(&file, V1);
    assert_eq!(outcome, Outcome::Replaced);
    assert_eq!(text, format!("\u{FEFF}{}after\r\nend", region(1, V1.body, "\r\n")));
    // The section last, without a final newline: still none.
    let file = format!("top\n{}", region(1, "old", "\n").trim_end());
    let (text, _) = ok(&file, V1);
    assert_eq!(text, format!("top\n{}", region(1, V1.body, "\n").trim_end()));
    assert_eq!(ok(&text, V1), (text.clone(), Outcome::Unchanged));
}

#[test]
fn an_older_version_is_upgraded_and_a_newer_refused() {
    let file = format!("mine\n\n{}tail\n", region(1, "old", "\n"));
    let v2 = Section { version: 2, body: "new" };
    let (text, outcome) = ok(&file, v2);
    assert_eq!(outcome, Outcome::Upgraded { from: 1, to: 2 });
    assert_eq!(text, format!("mine\n\n{}tail\n", region(2, "new", "\n")));
    let err = splice(Some(text.as_bytes()), V1, true).unwrap_err();
    assert_eq!(err, SpliceError::Newer { line: 3, found: 2, this: 1 });
}

#[test]
fn markers_in_code_fences_and_mid_line_are_mentions() {
    let file = "Write it like this:\n\n```md\n<!-- BEGIN CTX MANAGED SECTION v1 -->\n```\n\n~~~~\n<!-- END CTX MANAGED SECTION -->\n~~~\nstill code\n~~~~\nSee <!-- BEGIN CTX MANAGED SECTION v1 --> in prose.\n    <!-- END CTX MANAGED SECTION -->\n";
    let (text, outcome) = ok(file, V1);
    assert_eq!(outcome, Outcome::Appended);
    assert!(text.starts_with(file));
    assert_eq!(ok(&text, V1).1, Outcome::Unchanged);
}

#[test]
fn broken_markers_name_their_lines() {
    let section = region(1, "x", "\n");
    let begin = "<!-- BEGIN CTX MANAGED SECTION v1 -->\n";
    let end = "<!-- END CTX MANAGED SECTION -->\n";
    let lines = |problems: Vec<Problem>| problems.into_iter().map(|p| p.lines).collect::<Vec<_>>();
    assert_eq!(lines(broken(&format!("a\n{begin}b\n"))), [vec![2]]);
    assert_eq!(lines(broken(&format!("a\n{end}b\n{begin}"))), [vec![2], vec![4]]);
    assert_eq!(lines(broken(&format!("{begin}{begin}x\n{end}"))), [vec![1, 2]]);
    assert_eq!(lines(broken(&format!("{section}{section}"))), [vec![1, 7, 8, 14]]);
    let split = "a\n<!-- BEGIN CTX MANAGED\nSECTION v1 -->\nb\n<!-- END CTX MANAGED SECTION -->\n";
    let problems = broken(split);
    // The split BEGIN is broken, so the END has no BEGIN either.
    assert_eq!(lines(problems.clone()), [vec![2, 3], vec![5]]);
    assert!(problems[0].to_string().starts_with("lines 2, 3: a broken BEGIN marker (split across lines"));
    assert_eq!(lines(broken("<!-- end ctx managed section -->\n")), [vec![1]]);
    // Text that only opens a fence before the end cannot get a section appended.
    assert_eq!(lines(broken("a\n```\ncode\n")), [vec![2]]);
}

#[test]
fn repair_removes_markers_and_pairs_only() {
    let end = "<!-- END CTX MANAGED SECTION -->\n";
    // A split BEGIN and an END: one pair, removed with what is between.
    let file = format!("keep 1\n<!-- BEGIN CTX MANAGED\nSECTION v1 -->\nold\n{end}keep 2\n{end}keep 3");
    let edit = splice(Some(file.as_bytes()), V1, true).unwrap();
    let Outcome::Repaired { actions } = &edit.outcome else { panic!("{:?}", edit.outcome) };
    assert_eq!(
        actions,
        &[
            "removed the section at lines 2-5",
            "removed the unpaired END marker at line 7",
            "wrote a fresh section at line 2"
        ]
    );
    let text = String::from_utf8(edit.bytes).unwrap();
    assert_eq!(text, format!("keep 1\n{}keep 2\nkeep 3", region(1, V1.body, "\n")));
    assert_eq!(ok(&text, V1).1, Outcome::Unchanged);
    // A lone BEGIN: only its line goes.
    let file = "a\n<!-- BEGIN CTX MANAGED SECTION v1 -->\nb\n";
    let text = String::from_utf8(splice(Some(file.as_bytes()), V1, true).unwrap().bytes).unwrap();
    assert_eq!(text, format!("a\n{}b\n", region(1, V1.body, "\n")));
}

#[test]
fn a_body_must_not_hold_markers_or_open_fences() {
    assert_eq!(check_body("fine\n```\n<!-- END CTX MANAGED SECTION -->\n```\n"), Ok(()));
    assert_eq!(check_body("a\n<!-- END CTX MANAGED SECTION -->").unwrap_err().0, 2);
    assert_eq!(check_body("a\n~~~\n").unwrap_err().0, 2);
}

/// A line of user text: random Unicode or bytes (never a newline), a marker
/// look-alike in prose, or a marker split by a fence around it.
fn user_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        "[^\n]{0,20}".prop_map(|s: String| format!("x{s}").into_bytes()),
        proptest::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 0..12).prop_map(
            |mut b| {
                b.insert(0, b'y');
                b
            }
        ),
        Just(b"See <!-- BEGIN CTX MANAGED SECTION v1 --> mid-line.".to_vec()),
        Just(b"    <!-- END CTX MANAGED SECTION -->".to_vec()),
        Just(Vec::new()),
    ]
}

/// A block: a line, or a fenced block whose lines look like markers.
fn user_block() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop_oneof![
        3 => user_line().prop_map(|l| vec![l]),
        1 => (prop_oneof![Just("```"), Just("~~~~"), Just("  ```rust")], proptest::collection::vec(
            prop_oneof![
                Just(b"<!-- BEGIN CTX MANAGED SECTION v1 -->".to_vec()),
                Just(b"<!-- END CTX MANAGED SECTION -->".to_vec()),
                Just(b"<!-- BEGIN CTX MANAGED".to_vec()),
                user_line(),
            ],
            0..4,
        ))
            .prop_map(|(fence, body)| {
                let close = if fence.contains('~') { "~~~~" } else { "```" };
                let mut lines = vec![fence.as_bytes().to_vec()];
                lines.extend(body);
                lines.push(close.as_bytes().to_vec());
                lines
            }),
    ]
}

/// User text: blocks joined by LF or CRLF line endings, with or without a
/// final one.
fn user_text() -> impl Strategy<Value = Vec<u8>> {
    (proptest::collection::vec((user_block(), any::<bool>()), 0..6), any::<bool>()).prop_map(
        |(blocks, last)| {
            let lines: Vec<(Vec<u8>, bool)> = blocks
                .into_iter()
                .flat_map(|(block, crlf)| block.into_iter().map(move |l| (l, crlf)))
                .collect();
            let mut out = Vec::new();
            let count = lines.len();
            for (i, (line, crlf)) in lines.into_iter().enumerate() {
                out.extend(line);
                if i + 1 < count || last {
                    out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                }
            }
            out
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// After any sequence of splices (other bodies, versions going up), the
    /// bytes before and after the section are the original ones (plus, the
    /// first time, the line endings added before an appended section), and
    /// the same splice again changes nothing.
    #[test]
    fn only_the_region_ever_changes(
        bom in any::<bool>(),
        before in user_text(),
        after in user_text(),
        existing in proptest::option::of((0u32..2, "[a-z \n]{0,30}", any::<bool>())),
        edits in proptest::collection::vec((0u32..3, "[a-zA-Z `#\n]{0,40}"), 1..5),
    ) {
        let mut file = Vec::new();
        if bom {
            file.extend_from_slice(b"\xEF\xBB\xBF");
        }
        file.extend(&before);
        // An existing section sits on lines of its own, between the texts.
        let mut prefix = file.clone();
        let mut suffix = Vec::new();
        if let Some((version, body, final_eol)) = &existing {
            if !file.is_empty() && !file.ends_with(b"\n") {
                file.push(b'\n');
                prefix.push(b'\n');
            }
            file.extend(render_region(Section { version: *version, body }, "\n", true));
            // Last in a file without a final newline.
            if after.is_empty() && !final_eol {
                file.pop();
            }
            file.extend(&after);
            suffix = after.clone();
        }
        let mut version = 0;
        let mut current = file.clone();
        for (bump, body) in &edits {
            version += bump;
            let section = Section { version, body };
            if check_body(body).is_err() {
                continue;
            }
            let edit = match splice(Some(&current), section, false) {
                Ok(edit) => edit,
                Err(SpliceError::Newer { found, .. }) => {
                    prop_assert!(found > version);
                    continue;
                }
                Err(SpliceError::Broken(problems)) => {
                    return Err(TestCaseError::fail(format!("{problems:?}")));
                }
            };
            let (head, tail) = (&edit.bytes[..edit.region.start], &edit.bytes[edit.region.end..]);
            prop_assert!(head.starts_with(&prefix), "the bytes before the section changed");
            prop_assert!(head[prefix.len()..].iter().all(|b| *b == b'\r' || *b == b'\n'));
            if existing.is_some() {
                prop_assert_eq!(head.len(), prefix.len());
                // A missing final newline stays missing, even with the section last.
                prop_assert_eq!(edit.bytes.ends_with(b"\n"), file.ends_with(b"\n"));
            }
            prop_assert_eq!(tail, &suffix[..], "the bytes after the section changed");
            let region = &edit.bytes[edit.region.clone()];
            let begin = format!("<!-- BEGIN CTX MANAGED SECTION v{version} -->");
            prop_assert!(region.starts_with(begin.as_bytes()));
            prop_assert!(trim_end(region).ends_with(MARKER_END.as_bytes()));
            let again = splice(Some(&edit.bytes), section, false).unwrap();
            prop_assert_eq!(&again.outcome, &Outcome::Unchanged);
            prop_assert_eq!(&again.bytes, &edit.bytes);
            // The head holds what was there, and from now on stays.
            prefix = head.to_vec();
            current = edit.bytes;
        }
    }
}
