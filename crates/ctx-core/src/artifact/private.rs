//! Private notes, which agent contexts never include: a section marked
//! `<!-- private -->` (on its heading line or as its first text) with its
//! subsections, and any HTML comment whose text starts with `private`.

use super::markdown::Document;

/// Whether the comment opening at `<!--` of `text` (given what follows the `<!--`) is private.
fn is_private(after_open: &str) -> bool {
    after_open.trim_start().get(..7).is_some_and(|word| word.eq_ignore_ascii_case("private"))
}

/// Which sections of `doc` are private, in order (a private section's subsections are).
pub(crate) fn sections(text: &str, doc: &Document) -> Vec<bool> {
    let mut private = vec![false; doc.sections.len()];
    let mut until = 0;
    for (i, span) in doc.sections.iter().enumerate() {
        let heading = &text[span.heading.clone()];
        let own = text[span.heading.end..span.own_end].trim_start();
        let marked =
            heading.split("<!--").skip(1).any(is_private) || own.strip_prefix("<!--").is_some_and(is_private);
        if span.heading.start < until {
            private[i] = true;
        } else if marked {
            private[i] = true;
            until = span.end;
        }
    }
    private
}

/// `text` without its HTML comments, trimmed (a title shown to an agent).
pub(crate) fn without_comments(text: &str) -> String {
    remove_comments(text, |_| true).trim().to_string()
}

/// `text` without its private comments.
pub(crate) fn without_private_comments(text: &str) -> String {
    remove_comments(text, is_private)
}

fn remove_comments(text: &str, which: impl Fn(&str) -> bool) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        let after = &rest[at + 4..];
        if !which(after) {
            kept.push_str(&rest[..at + 4]);
            rest = after;
            continue;
        }
        kept.push_str(&rest[..at]);
        // An unclosed private comment hides everything after it.
        rest = after.find("-->").map_or("", |end| &after[end + 3..]);
    }
    kept.push_str(rest);
    kept
}

/// What stands for a private section's content.
const WITHHELD: &str = "<!-- withheld: private notes -->";

/// The whole document with private sections' content replaced by a marker
/// and private comments removed.
pub(crate) fn withheld(text: &str, doc: &Document) -> String {
    withheld_in(text, doc, 0..text.len())
}

/// Section `index`'s content (after its heading), its private subsections
/// replaced by a marker and private comments removed.
pub(crate) fn body_withheld(text: &str, doc: &Document, index: usize) -> String {
    withheld_in(text, doc, doc.sections[index].body())
}

/// The bytes of `within`, the outermost private sections inside it withheld.
fn withheld_in(text: &str, doc: &Document, within: std::ops::Range<usize>) -> String {
    let private = sections(text, doc);
    let mut ranges = Vec::new();
    let mut until = within.start;
    for (span, is_private) in doc.sections.iter().zip(&private) {
        let inside = span.heading.start >= within.start && span.heading.start < within.end;
        if inside && *is_private && span.heading.start >= until {
            ranges.push(span.heading.end - within.start..span.end.min(within.end) - within.start);
            until = span.end;
        }
    }
    replace(&text[within], ranges, doc.eol.as_str())
}

/// `text` with each of `ranges` (ascending, disjoint) replaced by the
/// marker line, and private comments removed.
fn replace(text: &str, ranges: Vec<std::ops::Range<usize>>, eol: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        out.push_str(&text[at..range.start]);
        out.push_str(WITHHELD);
        out.push_str(eol);
        at = range.end;
    }
    out.push_str(&text[at..]);
    without_private_comments(&out)
}

#[cfg(test)]
mod tests {
    use super::super::markdown::parse;
    use super::*;

    #[test]
    fn private_sections_take_their_subsections_and_comments_go() {
        let text = "# A\r\n\r\nkeep <!-- private: not this --> and <!-- this -->\r\n\r\n## B <!-- PRIVATE -->\r\n\r\nno\r\n\r\n### C\r\n\r\nno\r\n\r\n## D\r\n\r\n<!-- private -->\r\nno\r\n\r\n## E\r\n\r\nyes\r\n";
        let doc = parse(text);
        assert_eq!(sections(text, &doc), [false, true, true, true, false]);
        let shown = withheld(text, &doc);
        assert!(!shown.contains("no\r\n") && !shown.contains("not this"), "{shown}");
        assert!(shown.contains("keep  and <!-- this -->") && shown.contains("## E\r\n\r\nyes\r\n"));
        assert_eq!(shown.matches("<!-- withheld: private notes -->\r\n").count(), 2);
        assert_eq!(body_withheld(text, &doc, 0).matches(WITHHELD).count(), 2);
        assert_eq!(without_comments("Notes <!-- private -->"), "Notes");
        assert_eq!(without_private_comments("a <!-- private b"), "a ");
    }
}
