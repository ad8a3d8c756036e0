//! Printing: JSON for programs, text for people, errors on stderr.

use std::io::{self, Write};

use ctxkeep_core::paths::display_name;
use serde::Serialize;

/// Print `value` as pretty JSON on stdout.
pub fn json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// A broken pipe (`ctx status | head -1`) is success, not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(io::ErrorKind::BrokenPipe))
    })
}

/// One line on stderr; with `--json`, an object with a stable `code`.
pub fn print_error(err: &anyhow::Error, json: bool) {
    if json {
        eprintln!("{}", error_json(err));
    } else {
        eprintln!("ctx: error: {}", error_message(err));
    }
}

/// `{"error": {"code", "message"}}`: how `--json` and the MCP server report an error.
/// An artifact error is the ACK seed's object instead (`{"error": "SECTION_NOT_FOUND",
/// "message", "suggestions", "action", "candidates"}`, see docs/artifacts.md).
pub fn error_json(err: &anyhow::Error) -> serde_json::Value {
    if let Some(ctxkeep_core::Error::Artifact(artifact)) = err.downcast_ref::<ctxkeep_core::Error>() {
        return serde_json::to_value(artifact)
            .unwrap_or_else(|_| serde_json::json!({ "error": artifact.error }));
    }
    serde_json::json!({ "error": { "code": error_code(err), "message": error_message(err) } })
}

/// The stable code of the first ctx error among the causes of `err` (`ERROR` when there is none).
fn error_code(err: &anyhow::Error) -> &'static str {
    err.downcast_ref::<ctxkeep_core::Error>()
        .map(ctxkeep_core::Error::code)
        .or_else(|| err.downcast_ref::<ctxkeep_map::Error>().map(ctxkeep_map::Error::code))
        .unwrap_or("ERROR")
}

/// The causes of `err` joined by ": ", up to the first error of ctx's
/// libraries (whose message already ends with its cause: an I/O error's
/// reason, SQLite's): every error line of ctx (`main`'s, the MCP server's,
/// the hooks') says each cause once.
pub fn error_message(err: &anyhow::Error) -> String {
    let mut causes = Vec::new();
    for cause in err.chain() {
        causes.push(cause.to_string());
        if cause.is::<ctxkeep_core::Error>() || cause.is::<ctxkeep_map::Error>() {
            break;
        }
    }
    // One line, names and all: a path or an id cannot drive the terminal.
    display_name(&causes.join(": ")).into_owned()
}

/// A warning on stderr (text mode and JSON mode alike: stdout stays parseable).
pub fn warn(message: &str) {
    eprintln!("ctx: warning: {}", display_name(message));
}

/// An informational line on stderr (see `Env::note`, which `--quiet` silences).
pub fn note(message: &str) {
    eprintln!("ctx: note: {}", display_name(message));
}

/// `value` (a struct: a JSON object) as [`json`] prints it, with
/// `"from_file"` added when its folder argument named a file.
pub fn json_from_file<T: Serialize>(value: &T, from_file: Option<&str>) -> anyhow::Result<()> {
    #[derive(Serialize)]
    struct FromFile<'a, T> {
        #[serde(flatten)]
        value: &'a T,
        #[serde(skip_serializing_if = "Option::is_none")]
        from_file: Option<&'a str>,
    }
    json(&FromFile { value, from_file })
}

/// `1234567` → `1.2 MB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

/// `items` (names, paths) joined with ", ", at most `max` of them, then "and N more".
pub fn list_some(items: &[String], max: usize) -> String {
    let mut text = items.iter().take(max).map(|item| display_name(item)).collect::<Vec<_>>().join(", ");
    if items.len() > max {
        text.push_str(&format!(" and {} more", items.len() - max));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_printed_once_on_one_line() {
        let io = std::io::Error::new(std::io::ErrorKind::IsADirectory, "Is a directory");
        let err = anyhow::Error::from(ctxkeep_core::Error::Io { path: "a\nb".into(), source: io });
        assert_eq!(error_message(&err), "a\\nb: Is a directory");
        let err = err.context("cannot read");
        assert_eq!(error_message(&err), "cannot read: a\\nb: Is a directory");
        let err = anyhow::anyhow!("\u{1b}[31mred").context("outer");
        assert_eq!(error_message(&err), "outer: \\x1b[31mred");
    }

    #[test]
    fn bytes_for_people() {
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(1_234_567), "1.2 MB");
    }

    #[test]
    fn long_lists_are_cut() {
        let items: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(list_some(&items, 2), "a, b and 1 more");
        assert_eq!(list_some(&items, 3), "a, b, c");
    }
}
