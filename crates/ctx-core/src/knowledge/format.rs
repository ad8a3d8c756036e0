//! The text of a knowledge file: TOML front matter between two `+++`
//! lines, then a markdown body.
//!
//! ```text
//! +++
//! path = "src/auth"
//! description = "Sessions, tokens and the login flow"
//! +++
//!
//! The long-form context, as written.
//! ```
//!
//! Rendering is deterministic (fields in a fixed order, lists sorted where
//! order means nothing, no time of writing), so an unchanged item is an
//! unchanged file and two branches that touch different items never touch
//! the same file. Reading accepts CRLF line ends and a UTF-8 BOM (what an
//! editor or a Windows checkout may leave) and refuses a file with merge
//! conflict markers, naming their lines.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The line that opens and closes the front matter.
const FENCE: &str = "+++";

/// Why a knowledge file could not be read: the message, and the 1-based
/// line it is about when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileError {
    pub line: Option<usize>,
    pub message: String,
}

impl FileError {
    fn at(line: usize, message: impl Into<String>) -> FileError {
        FileError { line: Some(line), message: message.into() }
    }
}

/// A folder's authored context: `folders/<encoded path>.md`, the body its long-form content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FolderFront {
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub scope: bool,
    /// Sorted by path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<RelatedFront>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RelatedFront {
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A decision: `decisions/<id>.md`, the body its rationale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecisionFront {
    /// `D-…`; a hand-written file may leave it out (ctx gives one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// The frame's uid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// ISO-8601 UTC; default: when it was first read.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
}

/// A frame (task, epic, pushed frame): `frames/F<number>-<uid>.md`, the body its goal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrameFront {
    /// What identifies the frame everywhere (12 hex digits); a hand-written
    /// file may leave it out (ctx gives one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The `F` number; another frame's number (two branches made an F5)
    /// gets the next free one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<i64>,
    #[serde(rename = "type", default = "default_frame_type")]
    pub frame_type: String,
    pub title: String,
    #[serde(default = "default_status")]
    pub status: String,
    /// The parent frame's uid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub criteria: Vec<String>,
    /// Sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub summary: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// For a frame in progress: the order in which frames were started (the
    /// current frame is the one started last).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activation: Option<i64>,
    /// Oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<AttemptFront>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttemptFront {
    pub id: String,
    pub date: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
}

/// A pin: `pins/<id>.md`, the body its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PinFront {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
}

/// An artifact's authored state: `artifacts/<slug>.md` (no body: the
/// content is the Markdown file at `path`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArtifactFront {
    pub slug: String,
    /// The Markdown file, relative to the repository root.
    pub path: String,
    /// Empty: the configured default stage.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stage: String,
    /// `draft` or `finalized`.
    #[serde(default = "default_artifact_status")]
    pub status: String,
    /// The sections with a flag set, in slug order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<SectionFlagsFront>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SectionFlagsFront {
    pub slug: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub done: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub collapsed: bool,
}

fn default_artifact_status() -> String {
    "draft".into()
}

fn is_false(value: &bool) -> bool {
    !value
}

fn default_frame_type() -> String {
    "task".into()
}

fn default_status() -> String {
    "planned".into()
}

/// The file for `front` and `body`: the front matter, and the body (trimmed)
/// after one blank line when there is one.
pub(crate) fn render<T: Serialize>(front: &T, body: &str) -> Result<String> {
    let toml = toml::to_string(front)
        .map_err(|err| Error::InvalidInput(format!("cannot write a knowledge file: {err}")))?;
    let mut text = format!("{FENCE}\n{}\n{FENCE}\n", toml.trim_end());
    let body = body.trim();
    if !body.is_empty() {
        text.push('\n');
        text.push_str(body);
        text.push('\n');
    }
    Ok(text)
}

/// The front matter and the body (trimmed) of a knowledge file's text.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<(T, String), FileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.replace("\r\n", "\n");
    if let Some(conflict) = conflict_markers(&text) {
        return Err(conflict);
    }
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != FENCE {
        return Err(FileError::at(
            1,
            format!("a knowledge file starts with a `{FENCE}` line (its front matter)"),
        ));
    }
    let mut front = String::new();
    let mut closed_at = None;
    for (index, line) in lines.by_ref().enumerate() {
        if line.trim_end() == FENCE {
            closed_at = Some(index + 2);
            break;
        }
        front.push_str(line);
    }
    if closed_at.is_none() {
        return Err(FileError::at(
            1,
            format!("the front matter opened here is never closed by a `{FENCE}` line"),
        ));
    }
    let body: String = lines.collect();
    let parsed = toml::from_str::<T>(&front).map_err(|err| {
        // The front matter starts on the file's second line.
        let line =
            err.span().map_or(2, |span| 2 + front[..span.start.min(front.len())].matches('\n').count());
        FileError::at(line, err.message().trim_end().replace('\n', " "))
    })?;
    Ok((parsed, body.trim().to_string()))
}

/// The lines of git's conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`,
/// in that order), as an error; `None` when there are none. Each marker
/// alone may be text (`=======` underlines a heading), all three are a merge
/// left unresolved.
fn conflict_markers(text: &str) -> Option<FileError> {
    let mut start = None;
    let mut middle = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.starts_with("<<<<<<<") {
            start = Some(number);
            middle = false;
        } else if line.trim_end() == "=======" && start.is_some() {
            middle = true;
        } else if line.starts_with(">>>>>>>")
            && middle
            && let Some(start) = start
        {
            return Some(FileError::at(
                start,
                format!(
                    "merge conflict markers (lines {start}-{number}): resolve the conflict, then run `ctx scan`"
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> FolderFront {
        FolderFront {
            path: "src/auth".into(),
            description: "Sessions \"and\" tokens".into(),
            scope: true,
            related: vec![RelatedFront { path: "docs".into(), note: String::new() }],
        }
    }

    #[test]
    fn a_file_reads_back_as_written() {
        let text = render(&folder(), "\n# Auth\n\nLong text.\n\n").unwrap();
        assert_eq!(
            text,
            "+++\npath = \"src/auth\"\ndescription = 'Sessions \"and\" tokens'\nscope = true\n\n\
             [[related]]\npath = \"docs\"\n+++\n\n# Auth\n\nLong text.\n"
        );
        let (front, body): (FolderFront, String) = parse(&text).unwrap();
        assert_eq!((front, body.as_str()), (folder(), "# Auth\n\nLong text."));
        // An empty body is no body at all.
        let empty = render(&PinFront { id: "H-1".into(), date: String::new() }, "  \n").unwrap();
        assert_eq!(empty, "+++\nid = \"H-1\"\n+++\n");
    }

    #[test]
    fn crlf_and_a_bom_read_like_lf() {
        let text = render(&folder(), "Body\nline two").unwrap();
        let windows = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        let (front, body): (FolderFront, String) = parse(&windows).unwrap();
        assert_eq!((front, body.as_str()), (folder(), "Body\nline two"));
    }

    #[test]
    fn errors_name_their_line() {
        let err = |text: &str| parse::<FolderFront>(text).unwrap_err();
        assert_eq!(err("path = \"x\"\n").line, Some(1));
        assert_eq!(err("+++\npath = \"x\"\n").line, Some(1));
        let typo = err("+++\npath = \"x\"\ndescriptoin = \"y\"\n+++\n");
        assert_eq!(typo.line, Some(3), "{typo:?}");
        assert!(typo.message.contains("descriptoin"), "{typo:?}");
        let bad_value = err("+++\npath = \"x\"\nscope = \"yes\"\n+++\n");
        assert_eq!(bad_value.line, Some(3), "{bad_value:?}");
    }

    #[test]
    fn conflict_markers_are_refused_a_heading_underline_is_not() {
        let conflicted = "+++\n<<<<<<< HEAD\npath = \"a\"\n=======\npath = \"b\"\n>>>>>>> topic\n+++\n";
        let err = parse::<FolderFront>(conflicted).unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("lines 2-6"), "{err:?}");
        let heading = "+++\npath = \"a\"\n+++\n\nTitle\n=======\n\ntext\n";
        assert_eq!(parse::<FolderFront>(heading).unwrap().1, "Title\n=======\n\ntext");
    }
}
