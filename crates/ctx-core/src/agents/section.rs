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
mod tests;
