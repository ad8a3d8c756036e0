//! The managed-section editor (`agents::section::splice`, and `agents::update`
//! around it): marker soup — markers in any order, duplicated, nested,
//! unterminated, split, fenced, CRLF, BOMs, invalid UTF-8.

use ctxkeep_core::agents::section::{Outcome, Section, SpliceError, has_section, splice};
use ctxkeep_core::agents::{UpdateOptions, update};
use proptest::prelude::*;

const BEGIN: &str = "<!-- BEGIN CTX MANAGED SECTION v1 -->";
const END: &str = "<!-- END CTX MANAGED SECTION -->";

/// A line of a user's file: a marker (exact, broken, split, of another
/// version, indented), a fence, prose, or bytes.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::sample::select(&[
            BEGIN, END, "<!-- BEGIN CTX MANAGED SECTION v2 -->", "<!-- BEGIN CTX MANAGED SECTION v0 -->",
            "<!-- BEGIN CTX MANAGED SECTION v99999999999999999999 -->", "<!-- BEGIN CTX MANAGED SECTION v -->",
            "<!-- begin ctx managed section v1 -->", "<!--END CTX MANAGED-->", "<!-- BEGIN CTX MANAGED",
            "SECTION v1 -->", "SECTION", "-->", "v3-->", "   <!-- END CTX MANAGED SECTION -->  ",
            "    <!-- BEGIN CTX MANAGED SECTION v1 -->", "\t<!-- END CTX MANAGED SECTION -->",
            "<!-- BEGIN CTX MANAGED SECTION v1 --> trailing", "<!-- BEGIN CTX MANAGED SECTION v1 -->\r",
            "<!-- Do not edit inside this section: `ctx update` rewrites it. -->",
            "```", "~~~", "````md", "``` `", "   ~~~~~", "# Heading", "", "   ", "text <!-- BEGIN CTX MANAGED SECTION v1 --> mid",
        ][..]).prop_map(|s| s.as_bytes().to_vec()),
        1 => ".{0,30}".prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..20),
    ]
}

/// A block of lines: a line, or a whole section as ctx writes it (of some version).
fn block() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop_oneof![
        4 => line().prop_map(|l| vec![l]),
        1 => (0u32..2, prop::collection::vec(line(), 0..3)).prop_map(|(version, body)| {
            let mut lines = vec![
                format!("<!-- BEGIN CTX MANAGED SECTION v{version} -->").into_bytes(),
                b"<!-- Do not edit inside this section: `ctx update` rewrites it. -->".to_vec(),
                Vec::new(),
            ];
            lines.extend(body);
            lines.extend([Vec::new(), END.as_bytes().to_vec()]);
            lines
        }),
    ]
}

/// A file: lines joined by LF, CRLF or either, maybe a BOM, maybe no final newline.
fn file() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec((block(), 0u8..3), 0..10), any::<bool>(), any::<bool>()).prop_map(
        |(blocks, bom, final_eol)| {
            let lines: Vec<(Vec<u8>, u8)> = blocks
                .into_iter()
                .flat_map(|(block, eol)| block.into_iter().map(move |l| (l, eol)))
                .collect();
            let mut out = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            let n = lines.len();
            for (i, (line, eol)) in lines.into_iter().enumerate() {
                out.extend(line);
                if i + 1 < n || final_eol {
                    out.extend_from_slice([&b"\n"[..], b"\r\n", b"\r\r\n"][eol as usize]);
                }
            }
            out
        },
    )
}

fn body() -> impl Strategy<Value = String> {
    prop_oneof![Just("## ctx\n\nRead `.ctx/boot.md`.".to_string()), "[a-zA-Z #`\n\r]{0,40}"]
}

/// Where in `old` the bytes of `new` outside `region` came from: a prefix
/// and a suffix of `old`, with only line endings added before an appended section.
fn outside_is_kept(old: &[u8], new: &[u8], region: std::ops::Range<usize>, appended: bool) -> bool {
    let (head, tail) = (&new[..region.start], &new[region.end..]);
    if appended {
        return tail.is_empty()
            && head.starts_with(old)
            && head[old.len()..].iter().all(|b| *b == b'\r' || *b == b'\n');
    }
    old.starts_with(head) && old.ends_with(tail) && head.len() + tail.len() <= old.len()
}

/// Whether the bytes of `new` outside `region` are whole lines of `old`, in
/// their order (a BOM first stays first).
fn lines_kept_in_order(old: &[u8], new: &[u8], region: std::ops::Range<usize>) -> bool {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let (mut old, mut head) = (old, &new[..region.start]);
    if let Some(rest) = old.strip_prefix(BOM) {
        let Some(kept) = head.strip_prefix(BOM) else { return false };
        (old, head) = (rest, kept);
    }
    let mut old_lines = old.split_inclusive(|b| *b == b'\n');
    head.split_inclusive(|b| *b == b'\n')
        .chain(new[region.end..].split_inclusive(|b| *b == b'\n'))
        .all(|line| old_lines.any(|old_line| old_line == line))
}

proptest! {
    #![proptest_config(super::cases(2000))]

    /// Marker soup: an edit or a refusal; an edit keeps every byte outside
    /// its region, writes one well-formed section, and is a fixed point.
    #[test]
    fn splice_takes_marker_soup(old in file(), body in body(), version in 0u32..4, repair in any::<bool>()) {
        let section = Section { version, body: &body };
        prop_assume!(ctxkeep_core::agents::section::check_body(&body).is_ok());
        match splice(Some(&old), section, repair) {
            Ok(edit) => {
                prop_assert!(edit.region.start <= edit.region.end && edit.region.end <= edit.bytes.len());
                let region = &edit.bytes[edit.region.clone()];
                let begin = format!("<!-- BEGIN CTX MANAGED SECTION v{version} -->");
                prop_assert!(region.starts_with(begin.as_bytes()), "{:?}", String::from_utf8_lossy(region));
                prop_assert!(region.trim_ascii_end().ends_with(END.as_bytes()));
                match &edit.outcome {
                    // Repair deletes marker lines (and pairs with what is between): only whole lines go.
                    Outcome::Repaired { .. } => {
                        prop_assert!(repair);
                        prop_assert!(lines_kept_in_order(&old, &edit.bytes, edit.region.clone()),
                            "repair changed bytes outside the section:\n{:?}\n->\n{:?}",
                            String::from_utf8_lossy(&old), String::from_utf8_lossy(&edit.bytes));
                    }
                    outcome => {
                        let appended = *outcome == Outcome::Appended;
                        prop_assert!(outside_is_kept(&old, &edit.bytes, edit.region.clone(), appended),
                            "{outcome:?} changed bytes outside the section:\n{:?}\n->\n{:?}",
                            String::from_utf8_lossy(&old), String::from_utf8_lossy(&edit.bytes));
                    }
                }
                prop_assert!(has_section(&edit.bytes));
                let again = splice(Some(&edit.bytes), section, false).unwrap();
                prop_assert_eq!(again.outcome, Outcome::Unchanged);
                prop_assert_eq!(again.bytes, edit.bytes);
            }
            Err(SpliceError::Broken(problems)) => {
                prop_assert!(!problems.is_empty());
                for problem in &problems {
                    let lines = old.split(|b| *b == b'\n').count();
                    prop_assert!(problem.lines.iter().all(|l| (1..=lines).contains(l)), "{problem:?}");
                    prop_assert!(!problem.message.is_empty());
                }
            }
            Err(SpliceError::Newer { found, this, line }) => {
                prop_assert!(found > this && line >= 1);
            }
        }
    }

    /// Any bytes at all.
    #[test]
    fn splice_takes_arbitrary_bytes(old in prop::collection::vec(any::<u8>(), 0..600), repair in any::<bool>()) {
        let section = Section { version: 1, body: "body" };
        if let Ok(edit) = splice(Some(&old), section, repair) {
            prop_assert!(edit.region.end <= edit.bytes.len());
            prop_assert!(has_section(&edit.bytes));
        }
    }
}

proptest! {
    #![proptest_config(super::cases(300))]

    /// Through the public entry point, on disk: an update writes a good
    /// section, or refuses with a typed error and writes nothing at all.
    #[test]
    fn update_writes_a_section_or_nothing(agents in file(), claude in file(), repair in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join(".ctx")).unwrap();
        std::fs::write(root.join("AGENTS.md"), &agents).unwrap();
        std::fs::write(root.join("CLAUDE.md"), &claude).unwrap();
        match update(&root, &UpdateOptions { check: false, repair }) {
            Ok(_) => {
                for name in ["AGENTS.md", "CLAUDE.md"] {
                    prop_assert!(has_section(&std::fs::read(root.join(name)).unwrap()), "{name}");
                }
            }
            Err(err) => {
                prop_assert!(
                    ["MANAGED_SECTION_BROKEN", "NEWER_MANAGED_SECTION"].contains(&err.code()),
                    "{}: {err}", err.code()
                );
                prop_assert_eq!(std::fs::read(root.join("AGENTS.md")).unwrap(), agents);
                prop_assert_eq!(std::fs::read(root.join("CLAUDE.md")).unwrap(), claude);
                let written: Vec<_> = std::fs::read_dir(root.join(".ctx")).unwrap().collect();
                prop_assert!(written.is_empty(), "a refused update wrote {written:?}");
            }
        }
    }
}
