//! The managed-section editor: given the bytes of a file (or none) and the
//! section ctx wants in it, the new bytes. Pure: no I/O.
//!
//! The section is one region of lines:
//!
//! ```text
//! <!-- BEGIN CTX MANAGED SECTION v1 -->
//! <!-- (two comment lines: do not edit inside; run `ctx update`) -->
//!
//! (the body)
//!
//! <!-- END CTX MANAGED SECTION -->
//! ```
//!
//! Nothing outside the region ever changes: the editor works on bytes and
//! lines, so a UTF-8 BOM, CRLF or LF line endings (the section is written
//! with the file's dominant one), a missing final newline and bytes that are
//! not UTF-8 all stay. The one sequence ever added outside it: appending to
//! a file without a section first ends its last line (if it had no final
//! newline) and adds a blank line (if it did not end with one), using the
//! file's dominant line ending.
//!
//! A **marker** is a line that, after at most 3 spaces (4 would make it
//! indented code in CommonMark), is exactly `<!-- BEGIN CTX MANAGED SECTION
//! vN -->` or `<!-- END CTX MANAGED SECTION -->`, trailing whitespace
//! allowed. Lines inside fenced code blocks are never markers. A line that
//! starts like one (`<!-- BEGIN CTX MANAGED`, `<!-- END CTX MANAGED`, in any
//! case) but is not exactly one is a **broken** marker; the phrase in the
//! middle of a line is a mention, not a marker.
//!
//! Repair (`ctx update --repair`), one rule: read each marker, even a
//! broken one (also split across up to three lines), as what it says; delete
//! every BEGIN…END pair with what is between them and every unpaired marker
//! (its own lines only, never other text); write one fresh section where the
//! first marker was.

use std::fmt;
use std::ops::Range;

use serde::Serialize;

/// The version of the section's template that this ctx writes.
pub const SECTION_VERSION: u32 = 1;

const BEGIN_PREFIX: &str = "<!-- BEGIN CTX MANAGED SECTION v";
const MARKER_END: &str = "<!-- END CTX MANAGED SECTION -->";
const COMMENT_LINES: [&str; 2] = [
    "<!-- Do not edit inside this section: `ctx update` rewrites it. -->",
    "<!-- Put your own rules outside it (above or below); ctx never changes them. -->",
];
/// A broken marker split across lines is read from at most this many lines.
const MAX_SPLIT_LINES: usize = 3;

/// The section ctx wants in a file: its template version and its body (lines
/// joined by `\n`; written with the file's line ending).
#[derive(Debug, Clone, Copy)]
pub struct Section<'a> {
    pub version: u32,
    pub body: &'a str,
}

/// What an edit did (or, for a check, would do).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// There was no file: it holds the section alone.
    Created,
    /// The file had no section: it was added at the end.
    Appended,
    /// The section was there, same version, other content.
    Replaced,
    /// The section was there from an older template version.
    Upgraded { from: u32, to: u32 },
    /// The file already held exactly this section.
    Unchanged,
    /// Broken markers were removed and a fresh section written (`--repair`).
    Repaired { actions: Vec<String> },
}

/// The result of [`splice`]: the new bytes and what changed.
#[derive(Debug, Clone)]
pub struct Edit {
    pub bytes: Vec<u8>,
    pub outcome: Outcome,
    /// Where the section is in `bytes`.
    pub region: Range<usize>,
}

/// One thing wrong with a file's markers, with its 1-based lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub lines: Vec<usize>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lines.as_slice() {
            [] => write!(f, "{}", self.message),
            [line] => write!(f, "line {line}: {}", self.message),
            lines => {
                let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
                write!(f, "lines {}: {}", lines.join(", "), self.message)
            }
        }
    }
}

/// Why [`splice`] wrote nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpliceError {
    /// Markers that cannot be read as one section (`--repair` fixes them).
    Broken(Vec<Problem>),
    /// A section from a newer template version than `this` one (never downgraded).
    Newer { line: usize, found: u32, this: u32 },
}

/// A line of the file: `start..end` its bytes without the line ending,
/// `next` where the following line starts.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    next: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Begin,
    End,
}

/// A marker as read: its kind, version (BEGIN), lines (0-based, inclusive
/// range), and whether it is exactly a marker.
#[derive(Debug, Clone)]
struct Marker {
    kind: Kind,
    version: Option<u32>,
    first: usize,
    last: usize,
    exact: bool,
}

/// Put `section` into `existing` (`None`: the file does not exist).
pub fn splice(existing: Option<&[u8]>, section: Section<'_>, repair: bool) -> Result<Edit, SpliceError> {
    let Some(bytes) = existing else {
        let region = render_region(section, "\n", true);
        let len = region.len();
        return Ok(Edit { bytes: region, outcome: Outcome::Created, region: 0..len });
    };
    let lines = split_lines(bytes);
    let scanned = scan(bytes, &lines);
    for marker in &scanned.markers {
        if let Some(found) = marker.version.filter(|v| *v > section.version) {
            return Err(SpliceError::Newer { line: marker.first + 1, found, this: section.version });
        }
    }
    match pair(&scanned.markers) {
        Ok(None) => {
            if let Some(line) = scanned.open_fence {
                return Err(SpliceError::Broken(vec![Problem {
                    lines: vec![line + 1],
                    message: "a code fence opened here is never closed, so a section added at the end would be inside it".into(),
                }]));
            }
            Ok(append(bytes, &lines, section))
        }
        Ok(Some((begin, end))) => {
            Ok(replace(bytes, &lines, &scanned.markers[begin], &scanned.markers[end], section))
        }
        Err(problems) if !repair => Err(SpliceError::Broken(problems)),
        Err(_) => Ok(repair_markers(bytes, &lines, &scanned.markers, section)),
    }
}

/// Whether `bytes` hold one whole, well-formed ctx section (of any version).
pub fn has_section(bytes: &[u8]) -> bool {
    let lines = split_lines(bytes);
    matches!(pair(&scan(bytes, &lines).markers), Ok(Some(_)))
}

/// What `bytes` hold besides their one well-formed ctx section: the text
/// before it and after it, joined; `None` without such a section. A file
/// ctx created holds nothing else, and ctx's words say nothing of the project.
pub fn outside_section(bytes: &[u8]) -> Option<Vec<u8>> {
    let lines = split_lines(bytes);
    let markers = scan(bytes, &lines).markers;
    let (begin, end) = pair(&markers).ok()??;
    let start = lines[markers[begin].first].start;
    let after = lines[markers[end].last].next;
    let mut rest = bytes[..start].to_vec();
    rest.extend_from_slice(&bytes[after..]);
    Some(rest)
}

/// Whether `body` can be a section's body: no line of it would be read as a
/// marker and it closes every code fence it opens. `Err` has the 1-based
/// line of the body at fault and why.
pub fn check_body(body: &str) -> Result<(), (usize, &'static str)> {
    let bytes = body.as_bytes();
    let lines = split_lines(bytes);
    let scanned = scan(bytes, &lines);
    if let Some(marker) = scanned.markers.first() {
        return Err((marker.first + 1, "renders a line that would be read as a ctx section marker"));
    }
    if let Some(line) = scanned.open_fence {
        return Err((line + 1, "opens a code fence it does not close"));
    }
    Ok(())
}

/// The lines of `bytes`, split after each `\n` (a last line without one is a line too).
fn split_lines(bytes: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let (end, next) = match bytes[start..].iter().position(|b| *b == b'\n') {
            Some(at) => (start + at, start + at + 1),
            None => (bytes.len(), bytes.len()),
        };
        lines.push(Line { start, end, next });
        start = next;
    }
    lines
}

/// The content of line `i`: without its line ending (and `\r`), and the BOM on the first.
fn content<'b>(bytes: &'b [u8], lines: &[Line], i: usize) -> &'b [u8] {
    let line = lines[i];
    let mut text = &bytes[line.start..line.end];
    if i == 0 {
        text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    }
    text
}

/// `text` without up to 3 leading spaces; `None` when it is indented code
/// (a tab or 4 spaces first).
fn unindent(text: &[u8]) -> Option<&[u8]> {
    let spaces = text.iter().take(4).take_while(|b| **b == b' ').count();
    let rest = &text[spaces.min(3)..];
    (spaces < 4 && !rest.starts_with(b"\t")).then_some(rest)
}

struct Scanned {
    markers: Vec<Marker>,
    /// The 0-based line of a code fence still open at the end.
    open_fence: Option<usize>,
}

/// Find the markers outside fenced code blocks.
fn scan(bytes: &[u8], lines: &[Line]) -> Scanned {
    let mut markers = Vec::new();
    // The open fence: (its character, its length, its line).
    let mut fence: Option<(u8, usize, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let text = content(bytes, lines, i);
        let Some(rest) = unindent(text) else {
            i += 1;
            continue;
        };
        if let Some((ch, len, _)) = fence {
            if closes_fence(rest, ch, len) {
                fence = None;
            }
            i += 1;
            continue;
        }
        if let Some((ch, len)) = opens_fence(rest) {
            fence = Some((ch, len, i));
            i += 1;
            continue;
        }
        if let Some(marker) = read_marker(bytes, lines, i, rest) {
            i = marker.last + 1;
            markers.push(marker);
            continue;
        }
        i += 1;
    }
    Scanned { markers, open_fence: fence.map(|(_, _, line)| line) }
}

/// A fence opening: 3 or more backticks (whose info string has none) or tildes.
fn opens_fence(rest: &[u8]) -> Option<(u8, usize)> {
    let ch = *rest.first().filter(|c| **c == b'`' || **c == b'~')?;
    let len = rest.iter().take_while(|c| **c == ch).count();
    if len < 3 || (ch == b'`' && rest[len..].contains(&b'`')) {
        return None;
    }
    Some((ch, len))
}

/// A fence closing one opened with `len` times `ch`: at least as long, nothing after but spaces.
fn closes_fence(rest: &[u8], ch: u8, len: usize) -> bool {
    let run = rest.iter().take_while(|c| **c == ch).count();
    run >= len && rest[run..].iter().all(|c| c.is_ascii_whitespace())
}

/// The marker starting at line `i` (whose unindented content is `rest`), if the line starts like one.
fn read_marker(bytes: &[u8], lines: &[Line], i: usize, rest: &[u8]) -> Option<Marker> {
    let trimmed = trim_end(rest);
    if trimmed == MARKER_END.as_bytes() {
        return Some(Marker { kind: Kind::End, version: None, first: i, last: i, exact: true });
    }
    if let Some(version) = trimmed
        .strip_prefix(BEGIN_PREFIX.as_bytes())
        .and_then(|r| r.strip_suffix(b" -->"))
        .and_then(parse_version)
    {
        return Some(Marker { kind: Kind::Begin, version: Some(version), first: i, last: i, exact: true });
    }
    let kind = starts_like_marker(rest)?;
    // Broken. Split across lines? Read on to the line closing the comment,
    // if the lines between hold nothing but a marker's words.
    let mut words = String::from_utf8_lossy(rest).into_owned();
    let mut last = i;
    if !words.contains("-->") {
        for j in i + 1..lines.len().min(i + MAX_SPLIT_LINES) {
            let next = String::from_utf8_lossy(trim_end(content(bytes, lines, j)));
            let only_marker_words = next.split_whitespace().all(|w| {
                let w = w.to_ascii_uppercase();
                ["SECTION", "MANAGED", "CTX", "-->"].contains(&w.as_str())
                    || w.strip_prefix('V').and_then(|v| parse_version(v.as_bytes())).is_some()
                    || w.strip_suffix("-->").is_some_and(|v| {
                        v.strip_prefix('V').and_then(|v| parse_version(v.as_bytes())).is_some()
                    })
            });
            if !only_marker_words || next.trim().is_empty() {
                break;
            }
            words.push(' ');
            words.push_str(&next);
            if next.contains("-->") {
                last = j;
                break;
            }
        }
    }
    let version = (kind == Kind::Begin)
        .then(|| {
            let upper = words.to_ascii_uppercase();
            let after = upper.split("SECTION").nth(1)?;
            let token = after.split_whitespace().next()?;
            let digits = token.strip_prefix('V')?.trim_end_matches("-->");
            parse_version(digits.as_bytes())
        })
        .flatten();
    Some(Marker { kind, version, first: i, last, exact: false })
}

/// Whether a line starts like a marker: `<!--`, then the words BEGIN (or
/// END), CTX, MANAGED, in any case and spacing.
fn starts_like_marker(rest: &[u8]) -> Option<Kind> {
    let after = rest.strip_prefix(b"<!--")?;
    let text = String::from_utf8_lossy(after).to_ascii_uppercase().replace("-->", " ");
    let words: Vec<&str> = text.split_whitespace().take(3).collect();
    match words.as_slice() {
        ["BEGIN", "CTX", "MANAGED"] => Some(Kind::Begin),
        ["END", "CTX", "MANAGED"] => Some(Kind::End),
        _ => None,
    }
}

fn parse_version(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn trim_end(text: &[u8]) -> &[u8] {
    let keep = text.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |at| at + 1);
    &text[..keep]
}

/// The one section the markers make (BEGIN, END: indexes into `markers`),
/// none, or what is wrong with them.
fn pair(markers: &[Marker]) -> Result<Option<(usize, usize)>, Vec<Problem>> {
    let mut problems = Vec::new();
    for marker in markers.iter().filter(|m| !m.exact) {
        let what = if marker.kind == Kind::Begin { "BEGIN" } else { "END" };
        let lines: Vec<usize> = (marker.first..=marker.last).map(|l| l + 1).collect();
        let how = if marker.last > marker.first { "split across lines" } else { "not written exactly" };
        problems.push(Problem {
            lines,
            message: format!("a broken {what} marker ({how}; it must read `{}`)", expected(marker.kind)),
        });
    }
    let mut sections = Vec::new();
    let mut open: Option<usize> = None;
    for (at, marker) in markers.iter().enumerate().filter(|(_, m)| m.exact) {
        match (marker.kind, open) {
            (Kind::Begin, None) => open = Some(at),
            (Kind::Begin, Some(first)) => {
                problems.push(Problem {
                    lines: vec![markers[first].first + 1, marker.first + 1],
                    message: "two BEGIN markers without an END between them".into(),
                });
                open = Some(at);
            }
            (Kind::End, Some(begin)) => {
                sections.push((begin, at));
                open = None;
            }
            (Kind::End, None) => problems.push(Problem {
                lines: vec![marker.first + 1],
                message: "an END marker without a BEGIN before it".into(),
            }),
        }
    }
    if let Some(begin) = open {
        problems.push(Problem {
            lines: vec![markers[begin].first + 1],
            message: "a BEGIN marker without an END after it".into(),
        });
    }
    if sections.len() > 1 {
        let lines =
            sections.iter().flat_map(|(b, e)| [markers[*b].first + 1, markers[*e].first + 1]).collect();
        problems.push(Problem { lines, message: format!("{} sections; there must be one", sections.len()) });
    }
    problems.sort_by_key(|p| p.lines.first().copied());
    match (problems.is_empty(), sections.first()) {
        (true, section) => Ok(section.copied()),
        (false, _) => Err(problems),
    }
}

fn expected(kind: Kind) -> String {
    match kind {
        Kind::Begin => format!("{BEGIN_PREFIX}N -->"),
        Kind::End => MARKER_END.to_string(),
    }
}

/// The line ending most lines outside the section (`kept`: whether line `i`
/// stays outside it) end with; LF on a tie. Counted over what stays, so the
/// next edit of the result counts the same.
fn dominant_eol(bytes: &[u8], lines: &[Line], kept: impl Fn(usize) -> bool) -> &'static str {
    let (mut crlf, mut lf) = (0usize, 0usize);
    for (i, line) in lines.iter().enumerate() {
        if !kept(i) || line.next == line.end {
            continue;
        }
        if line.end > line.start && bytes[line.end - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    if crlf > lf { "\r\n" } else { "\n" }
}

/// The region's bytes: markers, comments, body, with `eol` between lines
/// and after the last when `final_eol`.
fn render_region(section: Section<'_>, eol: &str, final_eol: bool) -> Vec<u8> {
    let begin = format!("{BEGIN_PREFIX}{} -->", section.version);
    let body = section.body.trim_matches(|c| c == '\n' || c == '\r');
    let mut lines: Vec<&str> = vec![&begin, COMMENT_LINES[0], COMMENT_LINES[1], ""];
    lines.extend(body.split('\n').map(|l| l.trim_end_matches('\r')));
    lines.extend(["", MARKER_END]);
    let mut out = lines.join(eol);
    if final_eol {
        out.push_str(eol);
    }
    out.into_bytes()
}

fn append(bytes: &[u8], lines: &[Line], section: Section<'_>) -> Edit {
    let eol = dominant_eol(bytes, lines, |_| true);
    let mut out = bytes.to_vec();
    if let Some(last) = lines.last() {
        if last.next == last.end {
            out.extend_from_slice(eol.as_bytes());
        }
        let last_blank =
            last.next != last.end && content(bytes, lines, lines.len() - 1).trim_ascii().is_empty();
        if !last_blank {
            out.extend_from_slice(eol.as_bytes());
        }
    }
    let start = out.len();
    out.extend(render_region(section, eol, true));
    let end = out.len();
    Edit { bytes: out, outcome: Outcome::Appended, region: start..end }
}

fn replace(bytes: &[u8], lines: &[Line], begin: &Marker, end: &Marker, section: Section<'_>) -> Edit {
    let (first, last) = (begin.first, end.last);
    let eol = dominant_eol(bytes, lines, |i| !(first..=last).contains(&i));
    let final_eol = lines[last].next > lines[last].end;
    let (start, stop) = (lines[first].start + bom_len(bytes, first), lines[last].next);
    let region = render_region(section, eol, final_eol);
    let outcome = match begin.version {
        Some(old) if old < section.version => Outcome::Upgraded { from: old, to: section.version },
        _ if bytes[start..stop] == region[..] => Outcome::Unchanged,
        _ => Outcome::Replaced,
    };
    let mut out = Vec::with_capacity(bytes.len() + region.len());
    out.extend_from_slice(&bytes[..start]);
    out.extend_from_slice(&region);
    let region_range = start..out.len();
    out.extend_from_slice(&bytes[stop..]);
    Edit { bytes: out, outcome, region: region_range }
}

/// The BOM's length when line `i` is the first and starts with one.
fn bom_len(bytes: &[u8], i: usize) -> usize {
    if i == 0 && bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 }
}

/// The repair rule (see the module docs).
fn repair_markers(bytes: &[u8], lines: &[Line], markers: &[Marker], section: Section<'_>) -> Edit {
    // Spans of lines to delete: pairs with what is between, then lone markers.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut actions = Vec::new();
    let mut at = 0;
    while at < markers.len() {
        let marker = &markers[at];
        let next = markers.get(at + 1);
        if marker.kind == Kind::Begin
            && let Some(end) = next.filter(|m| m.kind == Kind::End)
        {
            spans.push((marker.first, end.last));
            actions.push(format!("removed the section at lines {}-{}", marker.first + 1, end.last + 1));
            at += 2;
            continue;
        }
        spans.push((marker.first, marker.last));
        let what = if marker.kind == Kind::Begin { "BEGIN" } else { "END" };
        let lines_text = if marker.last > marker.first {
            format!("lines {}-{}", marker.first + 1, marker.last + 1)
        } else {
            format!("line {}", marker.first + 1)
        };
        actions.push(format!("removed the unpaired {what} marker at {lines_text}"));
        at += 1;
    }
    let first = spans[0].0;
    let deleted = |i: usize| spans.iter().any(|(a, b)| (*a..=*b).contains(&i));
    let eol = dominant_eol(bytes, lines, |i| !deleted(i));
    // The section ends with a line ending unless nothing follows it in a
    // file that had no final newline.
    let tail_survives = (first..lines.len()).any(|i| !deleted(i));
    let final_eol = tail_survives || lines.last().is_some_and(|l| l.next > l.end);
    let mut out = Vec::with_capacity(bytes.len());
    let mut region = 0..0;
    for (i, line) in lines.iter().enumerate() {
        if i == first {
            let bom = bom_len(bytes, i);
            out.extend_from_slice(&bytes[line.start..line.start + bom]);
            let start = out.len();
            out.extend(render_region(section, eol, final_eol));
            region = start..out.len();
        }
        if !deleted(i) {
            out.extend_from_slice(&bytes[line.start..line.next]);
        }
    }
    actions.push(format!("wrote a fresh section at line {}", first + 1));
    Edit { bytes: out, outcome: Outcome::Repaired { actions }, region }
}

#[cfg(test)]
mod tests {
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
    fn has_section_finds_a_whole_section_only() {
        let whole = format!("# Notes\n{}more\n", region(1, V1.body, "\n"));
        assert!(has_section(whole.as_bytes()));
        assert!(!has_section(b"# Notes\n"));
        assert!(!has_section(b"a\n<!-- BEGIN CTX MANAGED SECTION v1 -->\nb\n"), "a lone BEGIN");
        let fenced = format!("```\n{}```\n", region(1, V1.body, "\n"));
        assert!(!has_section(fenced.as_bytes()), "markers in a code fence are text");
        // What is not ctx's: around the section, or nothing in a file ctx wrote.
        assert_eq!(outside_section(whole.as_bytes()).unwrap(), b"# Notes\nmore\n");
        assert_eq!(outside_section(region(1, V1.body, "\n").as_bytes()).unwrap(), b"");
        assert_eq!(outside_section(b"# Notes\n"), None);
        assert_eq!(outside_section(fenced.as_bytes()), None);
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
            proptest::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 0..12)
                .prop_map(|mut b| {
                    b.insert(0, b'y');
                    b
                }),
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
}
