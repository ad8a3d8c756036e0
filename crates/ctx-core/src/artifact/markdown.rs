//! Reading an artifact's Markdown into sections, by byte ranges, so that an
//! operation can rewrite one section and leave every other byte alone.
//!
//! What counts as a heading: an ATX heading (`#` to `######` after at most
//! three spaces, then a space, a tab or the end of the line), outside a
//! fenced code block (```` ``` ```` or `~~~`), outside an HTML comment
//! block (`<!--` … `-->`) and outside a front matter block (`---` … `---` or
//! `...` on the document's first line). Setext headings (`Title` underlined
//! with `===`) are not sections: the seed's documents use ATX headings, and
//! a `---` line under a paragraph stays what the author typed.
//!
//! A section runs from its heading line to the next heading of the same or
//! a higher level (so it holds its subsections); its **body** is everything
//! after the heading line. Text before the first heading (and the front
//! matter) belongs to no section.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The line ending of a document: the one of its first line break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Eol {
    Lf,
    CrLf,
}

impl Eol {
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
        }
    }

    fn of(text: &str) -> Eol {
        match text.find('\n') {
            Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => Eol::CrLf,
            _ => Eol::Lf,
        }
    }
}

/// One heading and the bytes it governs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SectionSpan {
    /// Unique in the document (see [`slugify`]; a repeated title gets `-2`, `-3`, …).
    pub slug: String,
    /// The heading's text, closing `#`s removed.
    pub title: String,
    pub level: u8,
    /// The heading line, its line ending included.
    pub heading: Range<usize>,
    /// Where the section ends: the next heading of the same or a higher level, or the end.
    pub end: usize,
    /// Where its own text ends: its first subsection's heading, or `end`.
    pub own_end: usize,
    /// 1-based line of the heading.
    pub line: usize,
}

impl SectionSpan {
    /// The bytes after the heading line, subsections included.
    pub fn body(&self) -> Range<usize> {
        self.heading.end..self.end
    }
}

/// A parsed document: where its front matter is and its sections, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    pub eol: Eol,
    pub front_matter: Option<Range<usize>>,
    pub sections: Vec<SectionSpan>,
    pub len: usize,
}

/// A heading found in a fragment of Markdown: its level, text and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Heading {
    pub level: u8,
    pub title: String,
    pub line: usize,
    pub range: Range<usize>,
}

/// What a fragment of Markdown leaves open at its end (it would swallow what follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Open {
    Nothing,
    CodeFence,
    HtmlComment,
}

/// The headings of `text` outside code fences and HTML comments, from byte
/// `start`; and what is left open at the end.
pub(crate) fn headings(text: &str, start: usize) -> (Vec<Heading>, Open) {
    let mut found = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut in_comment = false;
    let mut offset = start;
    let line_base = text[..start].matches('\n').count();
    for (index, raw) in text[start..].split_inclusive('\n').enumerate() {
        let line = raw.trim_end_matches(['\n', '\r']);
        let range = offset..offset + raw.len();
        offset += raw.len();
        if let Some((marker, count)) = fence {
            if is_fence_close(line, marker, count) {
                fence = None;
            }
            continue;
        }
        if in_comment {
            if line.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        if let Some(open) = fence_open(line) {
            fence = Some(open);
            continue;
        }
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() <= 3 && trimmed.starts_with("<!--") {
            in_comment = !trimmed[4..].contains("-->");
            continue;
        }
        if let Some((level, title)) = atx_heading(line) {
            found.push(Heading { level, title, line: line_base + index + 1, range });
        }
    }
    let open = match (fence, in_comment) {
        (Some(_), _) => Open::CodeFence,
        (None, true) => Open::HtmlComment,
        (None, false) => Open::Nothing,
    };
    (found, open)
}

/// Parse `text` into its sections (see the module docs).
pub(crate) fn parse(text: &str) -> Document {
    let eol = Eol::of(text);
    let front_matter = front_matter(text);
    let start = front_matter.as_ref().map_or(0, |range| range.end);
    let (found, _) = headings(text, start);
    let mut slugs = Slugs::default();
    let mut sections: Vec<SectionSpan> = Vec::with_capacity(found.len());
    for (index, heading) in found.iter().enumerate() {
        let end = found[index + 1..]
            .iter()
            .find(|next| next.level <= heading.level)
            .map_or(text.len(), |next| next.range.start);
        let own_end = found.get(index + 1).map_or(text.len(), |next| next.range.start).min(end);
        sections.push(SectionSpan {
            slug: slugs.unique(&slugify(&heading.title)),
            title: heading.title.clone(),
            level: heading.level,
            heading: heading.range.clone(),
            end,
            own_end,
            line: heading.line,
        });
    }
    Document { eol, front_matter, sections, len: text.len() }
}

/// The slugs of a document so far, and for each slug repeated, the suffix
/// to try next (so the `n`th repeat takes one try, not `n`).
#[derive(Default)]
pub(crate) struct Slugs {
    seen: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Slugs {
    /// `slug` itself when not yet taken, else the first free of `slug-2`, `slug-3`, ….
    pub(crate) fn unique(&mut self, slug: &str) -> String {
        if self.seen.insert(slug.to_string()) {
            return slug.to_string();
        }
        // Every suffix below `next` was taken when it was tried, and stays taken.
        let n = self.next.entry(slug.to_string()).or_insert(2);
        loop {
            let candidate = format!("{slug}-{n}");
            *n += 1;
            if self.seen.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// `What Is It?` → `what-is-it`: letters and digits lower-cased, every run
/// of anything else one `-`, none at either end; `section` when nothing is left.
pub(crate) fn slugify(title: &str) -> String {
    slug_with(title, char::is_alphanumeric, "section")
}

/// [`slugify`] keeping ASCII letters and digits only (an artifact's slug names a file).
pub(crate) fn ascii_slug(name: &str) -> String {
    slug_with(name, |c| c.is_ascii_alphanumeric(), "")
}

fn slug_with(text: &str, keep: impl Fn(char) -> bool, empty: &str) -> String {
    let mut slug = String::new();
    let mut dash = false;
    for c in text.chars() {
        if keep(c) {
            if dash && !slug.is_empty() {
                slug.push('-');
            }
            dash = false;
            slug.extend(c.to_lowercase());
        } else {
            dash = true;
        }
    }
    if slug.is_empty() { empty.to_string() } else { slug }
}

/// The section's own text (before its first subsection) as a preview: HTML
/// comments left out, whitespace folded, at most `max` characters; `None` when empty.
pub(crate) fn preview(text: &str, section: &SectionSpan, max: usize) -> Option<String> {
    let own = &text[section.heading.end..section.own_end];
    let mut plain = String::new();
    let mut rest = own;
    while let Some(at) = rest.find("<!--") {
        plain.push_str(&rest[..at]);
        rest = match rest[at..].find("-->") {
            Some(end) => &rest[at + end + 3..],
            None => "",
        };
    }
    plain.push_str(rest);
    let folded = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    if folded.is_empty() {
        return None;
    }
    Some(folded.chars().take(max).collect())
}

/// The front matter: a `---` first line (after a byte order mark) up to
/// and including the next `---` or `...` line. Unclosed, it is no front matter.
fn front_matter(text: &str) -> Option<Range<usize>> {
    let start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut lines = text[start..].split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end_matches(['\n', '\r']).trim_end() != "---" || !first.ends_with('\n') {
        return None;
    }
    let mut offset = start + first.len();
    for line in lines {
        offset += line.len();
        let bare = line.trim_end_matches(['\n', '\r']).trim_end();
        if bare == "---" || bare == "..." {
            return Some(0..offset);
        }
    }
    None
}

/// An ATX heading line: its level and text.
fn atx_heading(line: &str) -> Option<(u8, String)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let hashes = trimmed.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &trimmed[hashes..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut title = rest.trim();
    // A closing sequence of `#`s (after a space, or all there is) is not part of the text.
    let without = title.trim_end_matches('#');
    if without.len() < title.len() && (without.is_empty() || without.ends_with([' ', '\t'])) {
        title = without.trim_end();
    }
    Some((hashes as u8, title.to_string()))
}

/// A code fence's opening line: its character and length.
fn fence_open(line: &str) -> Option<(u8, usize)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let marker = *trimmed.as_bytes().first()?;
    if marker != b'`' && marker != b'~' {
        return None;
    }
    let count = trimmed.bytes().take_while(|b| *b == marker).count();
    if count < 3 || (marker == b'`' && trimmed[count..].contains('`')) {
        return None;
    }
    Some((marker, count))
}

fn is_fence_close(line: &str, marker: u8, count: usize) -> bool {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return false;
    }
    let run = trimmed.bytes().take_while(|b| *b == marker).count();
    run >= count && trimmed[run..].trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONCEPT: &str = "---\ntitle: x\n# not a heading\n---\n\n# Project Concept: ACK\n\nIntro.\n\n## What Is It?\n\nACK (Agent Context Kit) is a planning layer.\n\n```md\n# inside a fence\n```\n\n### Details ###\n\nMore.\n\n## Problem Being Solved\n\n<!--\n# in a comment\n-->\n\n## What Is It?\n";

    #[test]
    fn sections_slugs_levels_and_ranges() {
        let doc = parse(CONCEPT);
        let slugs: Vec<&str> = doc.sections.iter().map(|s| s.slug.as_str()).collect();
        assert_eq!(
            slugs,
            ["project-concept-ack", "what-is-it", "details", "problem-being-solved", "what-is-it-2"]
        );
        let levels: Vec<u8> = doc.sections.iter().map(|s| s.level).collect();
        assert_eq!(levels, [1, 2, 3, 2, 2]);
        assert_eq!(doc.sections[2].title, "Details");
        assert!(doc.front_matter.is_some());
        // "What Is It?" holds its subsection and stops at the next level-2 heading.
        let what = &doc.sections[1];
        assert!(CONCEPT[what.body()].contains("### Details"));
        assert!(CONCEPT[what.end..].starts_with("## Problem"));
        assert!(CONCEPT[what.own_end..].starts_with("### Details"));
        assert_eq!(doc.sections[0].end, CONCEPT.len());
        assert_eq!(
            preview(CONCEPT, what, 200).as_deref(),
            Some("ACK (Agent Context Kit) is a planning layer. ```md # inside a fence ```")
        );
        assert_eq!(preview(CONCEPT, &doc.sections[3], 200), None, "a comment alone is no preview");
        assert_eq!(doc.sections[1].line, 10);
    }

    #[test]
    fn slugs() {
        assert_eq!(slugify("What Is It?"), "what-is-it");
        assert_eq!(slugify("  `ctx` -- the CLI!  "), "ctx-the-cli");
        assert_eq!(slugify("Überblick"), "überblick");
        assert_eq!(slugify("???"), "section");
        assert_eq!(ascii_slug("Überblick.md"), "berblick-md");
    }

    #[test]
    fn what_is_and_is_not_a_heading() {
        for (line, expected) in [
            ("# A", Some((1, "A"))),
            ("   ## B ##", Some((2, "B"))),
            ("#", Some((1, ""))),
            ("####### seven", None),
            ("#hashtag", None),
            ("    # indented code", None),
            ("## C#", Some((2, "C#"))),
        ] {
            assert_eq!(atx_heading(line).as_ref().map(|(l, t)| (*l, t.as_str())), expected, "{line}");
        }
    }

    #[test]
    fn crlf_and_open_blocks() {
        let doc = parse("# A\r\ntext\r\n## B\r\n");
        assert_eq!(doc.eol, Eol::CrLf);
        assert_eq!(doc.sections[0].heading, 0..5);
        assert_eq!(headings("```\n# x\n", 0).1, Open::CodeFence);
        assert_eq!(headings("<!-- a\n# x\n", 0).1, Open::HtmlComment);
        assert_eq!(headings("<!-- a -->\n# x\n", 0).0.len(), 1);
        assert!(front_matter("---\nno end\n").is_none());
    }
}
