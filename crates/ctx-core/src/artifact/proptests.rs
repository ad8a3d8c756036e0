//! Property tests of the byte-exact editor: on random documents (LF or
//! CRLF, front matter, code fences holding `#` lines, headings at several
//! levels, repeated titles, a missing final newline), and on any text at
//! all, an edit changes only the bytes of its section, and an untouched
//! document reads back as it was.

use proptest::prelude::*;

use super::edit::{insert_section, invalid_content, normalize, replace_body};
use super::markdown::{Document, Eol, parse};

/// One block of a random document.
#[derive(Debug, Clone)]
enum Block {
    Heading(u8, String),
    Paragraph(String),
    Fence(Vec<String>),
    Comment(String),
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["alpha", "Beta", "what is it?", "Überblick", "x#y", "##", "-", "done"])
        .prop_map(str::to_string)
}

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        (1u8..=4, prop::collection::vec(word(), 1..3)).prop_map(|(l, w)| Block::Heading(l, w.join(" "))),
        prop::collection::vec(word(), 1..6).prop_map(|w| Block::Paragraph(w.join(" "))),
        prop::collection::vec(prop::sample::select(vec!["# inside", "## also", "code", "~~~"]), 0..3)
            .prop_map(|lines| Block::Fence(lines.into_iter().map(str::to_string).collect())),
        word().prop_map(|w| Block::Comment(format!("# {w}"))),
    ]
}

/// A random document and its line ending.
fn document() -> impl Strategy<Value = String> {
    (prop::collection::vec(block(), 0..12), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(blocks, crlf, front_matter, final_newline)| {
            let mut lines: Vec<String> = Vec::new();
            if front_matter {
                lines.extend(["---", "title: x", "# not a heading", "---"].map(str::to_string));
            }
            for block in blocks {
                match block {
                    Block::Heading(level, text) => {
                        lines.push(format!("{} {text}", "#".repeat(level as usize)))
                    }
                    Block::Paragraph(text) => lines.push(text),
                    Block::Fence(inner) => {
                        lines.push("```md".into());
                        lines.extend(inner);
                        lines.push("```".into());
                    }
                    Block::Comment(inner) => {
                        lines.push("<!--".into());
                        lines.push(inner);
                        lines.push("-->".into());
                    }
                }
                lines.push(String::new());
            }
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut text = lines.join(eol);
            if final_newline && !text.is_empty() {
                text.push_str(eol);
            }
            text
        },
    )
}

fn content() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["new text", "#### deep", "```", "# fenced", "```", "", "- item"]),
        0..6,
    )
    .prop_map(|lines| lines.join("\n"))
}

/// Headings outside front matter, fences and comments, with their levels and titles.
fn outline(doc: &Document) -> Vec<(u8, String)> {
    doc.sections.iter().map(|s| (s.level, s.title.clone())).collect()
}

proptest! {
    // Arbitrary text (a quarter of the documents and of the new bodies) often has no
    // section or is no valid body: those draws are rejected, more than proptest's
    // default 1,024 on some seeds, so the budget of rejects is raised, not the cases cut.
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 16_384, ..ProptestConfig::default() })]

    #[test]
    fn an_untouched_document_reads_back_byte_identical(text in prop_oneof![3 => document(), 1 => any_text()]) {
        let doc = parse(&text);
        // Front matter, preamble and sections tile the document: rebuilt from its pieces, it is itself.
        let start = doc.sections.first().map_or(text.len(), |s| s.heading.start);
        let mut rebuilt = text[..start].to_string();
        for (index, section) in doc.sections.iter().enumerate() {
            let next = doc.sections.get(index + 1).map_or(text.len(), |s| s.heading.start);
            rebuilt.push_str(&text[section.heading.start..next]);
        }
        prop_assert_eq!(&rebuilt, &text);
        prop_assert_eq!(&parse(&rebuilt), &doc);
        // Slugs are unique.
        let mut slugs: Vec<&str> = doc.sections.iter().map(|s| s.slug.as_str()).collect();
        let n = slugs.len();
        slugs.sort();
        slugs.dedup();
        prop_assert_eq!(slugs.len(), n);
    }

    #[test]
    fn an_update_changes_only_its_section(text in prop_oneof![3 => document(), 1 => any_text()], pick in any::<prop::sample::Index>(), new in prop_oneof![3 => content(), 1 => any_text()]) {
        let doc = parse(&text);
        prop_assume!(!doc.sections.is_empty());
        let index = pick.index(doc.sections.len());
        let section = doc.sections[index].clone();
        prop_assume!(invalid_content(&new, section.level).is_none());
        let edit = replace_body(&text, &doc, index, &new);
        let body = section.body();
        prop_assert_eq!(edit.replaced.clone(), body.clone());
        // Every byte before the body and after the section is where it was.
        prop_assert_eq!(&edit.text[..body.start], &text[..body.start]);
        let tail = text.len() - section.end;
        prop_assert_eq!(&edit.text[edit.text.len() - tail..], &text[section.end..]);
        // The new bytes use the section's line ending only.
        let inserted = &edit.text[body.start..body.start + edit.inserted];
        if text[..body.start].ends_with("\r\n") {
            prop_assert!(!inserted.replace("\r\n", "").contains('\n'), "{:?}", inserted);
        } else if text[..body.start].ends_with('\n') {
            prop_assert!(!inserted.contains('\r'), "{:?}", inserted);
        }
        // The other sections are still there, in order, and the section still ends where it did.
        let after = parse(&edit.text);
        let before_outline = outline(&doc);
        let after_outline = outline(&after);
        prop_assert_eq!(&after_outline[..=index], &before_outline[..=index]);
        let later = before_outline.len() - (doc.sections.iter().position(|s| s.heading.start >= section.end).unwrap_or(before_outline.len()));
        prop_assert_eq!(&after_outline[after_outline.len() - later..], &before_outline[before_outline.len() - later..]);
        prop_assert_eq!(after.front_matter, doc.front_matter);
    }

    #[test]
    fn an_insert_changes_no_existing_byte(text in prop_oneof![3 => document(), 1 => any_text()], pick in any::<prop::sample::Index>(), new in prop_oneof![3 => content(), 1 => any_text()], level in 1u8..=6) {
        let doc = parse(&text);
        prop_assume!(invalid_content(&new, level).is_none());
        let at = if doc.sections.is_empty() { text.len() } else { doc.sections[pick.index(doc.sections.len())].end };
        let edit = match insert_section(&text, &doc, at, level, "Brand New", &new) {
            Ok(edit) => edit,
            Err(_) => {
                // Refused only where a heading would be no heading: inside a block left open before it.
                let probe = format!("{}\n\n# Probe\n", &text[..at]);
                prop_assert!(parse(&probe).sections.iter().all(|s| s.title != "Probe"), "refused at {}", at);
                return Ok(());
            }
        };
        prop_assert_eq!(&edit.text[..at], &text[..at]);
        prop_assert_eq!(&edit.text[at + edit.inserted..], &text[at..]);
        let after = parse(&edit.text);
        prop_assert_eq!(after.sections.iter().filter(|s| s.title == "Brand New").count(), 1);
        prop_assert_eq!(after.sections.len(), doc.sections.len() + 1 + parse(&normalize(&new, Eol::Lf)).sections.len());
    }
}

/// Any text: what the parser reacts to (heading marks, fences, comment
/// marks, front matter lines, line endings), any characters, NUL and BOMs.
fn any_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "#", "# ", "## ", "###### ", "####### ", "   # ", "    # ", "\t# ", "#\t", " #", "##", "```", "~~~",
            "````", "``` `", "<!--", "-->", "---", "...", "\n", "\r\n", "\r", "\u{FEFF}", "\u{0}", "é", "💥",
            "\u{301}", "İ", "title", " ", "-",
        ])
        .prop_map(str::to_string),
        2 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![any::<String>(), prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text parses: its sections lie on character boundaries inside it,
    /// in order, each ending at or after its heading and within its parent,
    /// with unique slugs; and it reads back the same.
    #[test]
    fn any_text_parses_into_sections_within_it(text in any_text()) {
        let doc = parse(&text);
        prop_assert_eq!(doc.len, text.len());
        if let Some(front) = &doc.front_matter {
            prop_assert!(front.end <= text.len() && text.is_char_boundary(front.end));
        }
        let mut previous = doc.front_matter.as_ref().map_or(0, |f| f.end);
        for section in &doc.sections {
            let (heading, end, own) = (&section.heading, section.end, section.own_end);
            prop_assert!(previous <= heading.start && heading.start < heading.end, "{section:?}");
            prop_assert!(heading.end <= own && own <= end && end <= text.len(), "{section:?}");
            for at in [heading.start, heading.end, own, end] {
                prop_assert!(text.is_char_boundary(at));
            }
            prop_assert!((1..=6).contains(&section.level) && section.line >= 1);
            prop_assert!(!section.slug.is_empty());
            previous = heading.end;
        }
        let mut slugs: Vec<&str> = doc.sections.iter().map(|s| s.slug.as_str()).collect();
        let n = slugs.len();
        slugs.sort();
        slugs.dedup();
        prop_assert_eq!(slugs.len(), n);
        prop_assert_eq!(&parse(&text), &doc);
    }
}

/// Regression: the `n`th heading of a title took `n` tries to find its
/// slug (`section-n`), so a file of many repeated headings took quadratic
/// time (50,000 `#` lines: hours).
#[test]
fn many_repeated_headings_get_their_slugs_in_linear_time() {
    let text = "#\n".repeat(50_000) + "# section 3\n";
    let doc = parse(&text);
    assert_eq!(doc.sections.len(), 50_001);
    assert_eq!(doc.sections[2].slug, "section-3");
    assert_eq!(doc.sections[49_999].slug, "section-50000");
    // A title whose slug an earlier repeat took gets the next free one.
    assert_eq!(doc.sections[50_000].slug, "section-3-2");
}
