//! Byte-exact edits of an artifact's Markdown: replace one section's body,
//! or insert a new section at a section boundary. Every byte outside the
//! edited range is kept as it was (front matter, other sections, line
//! endings, a missing final newline); the new bytes use the document's
//! line ending.

use std::ops::Range;

use super::markdown::{Document, Eol, Open, headings};

/// A change to a document: its new text and the range of the old text it replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub text: String,
    pub replaced: Range<usize>,
    pub inserted: usize,
}

/// Why `content` cannot be the body of a section at `level`; `None` when it can.
/// A heading of that level or higher would split the section; an unclosed
/// code fence or HTML comment would swallow the headings after it.
pub(crate) fn invalid_content(content: &str, level: u8) -> Option<String> {
    let content = lf_lines(content);
    let (found, open) = headings(&content, 0);
    if let Some(heading) = found.iter().find(|h| h.level <= level) {
        return Some(format!(
            "line {} of the content opens a level-{} heading ({:?}), which would split a level-{level} section: \
             use create_section, or a deeper heading (level {} or more)",
            heading.line,
            heading.level,
            heading.title,
            level + 1
        ));
    }
    match open {
        Open::Nothing => None,
        Open::CodeFence => Some(
            "the content opens a code fence it never closes (it would swallow the sections after it)".into(),
        ),
        Open::HtmlComment => Some(
            "the content opens an HTML comment it never closes (it would swallow the sections after it)"
                .into(),
        ),
    }
}

/// `content` with every line break (CRLF, LF, a lone CR as CommonMark reads it) a LF.
fn lf_lines(content: &str) -> String {
    content.replace("\r\n", "\n").replace('\r', "\n")
}

/// `content` with the document's line endings, without blank lines at
/// either end or trailing whitespace.
pub(crate) fn normalize(content: &str, eol: Eol) -> String {
    let lf = lf_lines(content);
    let trimmed = lf.trim_end();
    let start = trimmed
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map_or(trimmed.len(), |(at, _)| trimmed[..at].rfind('\n').map_or(0, |nl| nl + 1));
    let body = &trimmed[start..];
    match eol {
        Eol::Lf => body.to_string(),
        Eol::CrLf => body.replace('\n', "\r\n"),
    }
}

/// A section's body after its heading line: a blank line and `content` (in
/// the document's line endings) if there is any, and a blank line before
/// what follows, if anything does.
fn push_body(new: &mut String, content: &str, line_end: Eol, followed: bool) {
    let eol = line_end.as_str();
    let content = normalize(content, line_end);
    if !content.is_empty() {
        new.push_str(eol);
        new.push_str(&content);
        new.push_str(eol);
    }
    if followed {
        new.push_str(eol);
    }
}

/// Replace the body of section `index` of `doc` (parsed from `text`) by `content`.
pub(crate) fn replace_body(text: &str, doc: &Document, index: usize, content: &str) -> Edit {
    let section = &doc.sections[index];
    let line_end = line_ending_before(text, section.heading.end).unwrap_or(doc.eol);
    let eol = line_end.as_str();
    let mut new = String::new();
    if !text[section.heading.clone()].ends_with('\n') {
        new.push_str(eol);
    }
    push_body(&mut new, content, line_end, section.end < text.len());
    splice(text, section.body(), &new)
}

/// Insert a section (`level`, `title`, `content`) at byte `at` of `text`,
/// a section boundary of `doc` (a heading's start, or the end). `Err` says
/// why not: the text before `at` leaves a code fence or an HTML comment
/// open, so the heading would be inside it.
pub(crate) fn insert_section(
    text: &str,
    doc: &Document,
    at: usize,
    level: u8,
    title: &str,
    content: &str,
) -> Result<Edit, String> {
    let start = doc.front_matter.as_ref().map_or(0, |front| front.end).min(at);
    let block = match headings(&text[..at], start).1 {
        Open::Nothing => None,
        Open::CodeFence => Some("a code fence"),
        Open::HtmlComment => Some("an HTML comment"),
    };
    if let Some(block) = block {
        return Err(format!(
            "the text before this place opens {block} it never closes, so a section added here would be inside it: close it first"
        ));
    }
    let line_end = line_ending_before(text, at).unwrap_or(doc.eol);
    let eol = line_end.as_str();
    let mut new = String::new();
    let before = &text[..at];
    // The heading starts a line, after a blank line (unless it opens the document).
    if !before.is_empty() {
        if !before.ends_with('\n') {
            new.push_str(eol);
        }
        if !(before.ends_with("\n\n") || before.ends_with("\n\r\n")) {
            new.push_str(eol);
        }
    }
    new.push_str(&"#".repeat(level as usize));
    new.push(' ');
    new.push_str(title);
    new.push_str(eol);
    push_body(&mut new, content, line_end, at < text.len());
    Ok(splice(text, at..at, &new))
}

/// The line ending of the line that ends at byte `at` (a line start):
/// a document with mixed endings gets, at each place, the one around it.
fn line_ending_before(text: &str, at: usize) -> Option<Eol> {
    let before = &text[..at];
    if before.ends_with("\r\n") {
        Some(Eol::CrLf)
    } else if before.ends_with('\n') {
        Some(Eol::Lf)
    } else {
        None
    }
}

fn splice(text: &str, range: Range<usize>, new: &str) -> Edit {
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..range.start]);
    out.push_str(new);
    out.push_str(&text[range.end..]);
    Edit { text: out, replaced: range, inserted: new.len() }
}

#[cfg(test)]
mod tests {
    use super::super::markdown::parse;
    use super::*;

    #[test]
    fn replacing_a_body_touches_nothing_else() {
        let text = "---\na: 1\n---\n# T\r\n\r\n## A\r\nold\r\n### Sub\r\nx\r\n## B\r\nkeep\r\n";
        let doc = parse(text);
        let edit = replace_body(text, &doc, 1, "new\ntext\n\n");
        assert_eq!(edit.text, "---\na: 1\n---\n# T\r\n\r\n## A\r\n\r\nnew\r\ntext\r\n\r\n## B\r\nkeep\r\n");
        // The last section, with no final newline.
        let text = "# T\n## B\nold";
        let edit = replace_body(text, &parse(text), 1, "new");
        assert_eq!(edit.text, "# T\n## B\n\nnew\n");
        // A heading on the last line, with nothing after it.
        let edit = replace_body("# T", &parse("# T"), 0, "body");
        assert_eq!(edit.text, "# T\n\nbody\n");
    }

    #[test]
    fn inserting_a_section() {
        let text = "# T\n\n## A\ntext\n## B\n";
        let doc = parse(text);
        let edit = insert_section(text, &doc, doc.sections[1].end, 2, "New", "hello").unwrap();
        assert_eq!(edit.text, "# T\n\n## A\ntext\n\n## New\n\nhello\n\n## B\n");
        let edit = insert_section(text, &doc, text.len(), 2, "Last", "").unwrap();
        assert_eq!(edit.text, "# T\n\n## A\ntext\n## B\n\n## Last\n");
        let edit = insert_section("# T", &parse("# T"), 3, 2, "X", "").unwrap();
        assert_eq!(edit.text, "# T\n\n## X\n");
    }

    #[test]
    fn content_that_would_split_the_section_is_refused() {
        assert!(invalid_content("text\n### deeper\n", 2).is_none());
        assert!(invalid_content("```\n# in a fence\n```\n", 2).is_none());
        assert!(invalid_content("text\n## same level\n", 2).unwrap().contains("line 2"));
        assert!(invalid_content("# higher", 2).is_some());
        assert!(invalid_content("```\nnever closed\n", 2).unwrap().contains("code fence"));
        assert!(invalid_content("<!-- open\n", 2).unwrap().contains("comment"));
    }

    #[test]
    fn normalized_content() {
        assert_eq!(normalize("\n\n  indented\nx  \n\n", Eol::Lf), "  indented\nx");
        assert_eq!(normalize("a\r\nb\n", Eol::CrLf), "a\r\nb");
        assert_eq!(normalize(" \n \n", Eol::Lf), "");
    }

    /// Regression: a lone `\r` (a line break in CommonMark, old Mac files)
    /// was written as it came, into a document of other line endings, and a
    /// heading after one was not seen by the check of the content.
    #[test]
    fn a_lone_carriage_return_is_a_line_break_of_the_content() {
        assert_eq!(normalize("a\rb\r\nc\r", Eol::Lf), "a\nb\nc");
        assert_eq!(normalize("a\rb", Eol::CrLf), "a\r\nb");
        assert!(invalid_content("text\r## same level", 2).unwrap().contains("line 2"));
    }
}
