//! The engine's messages in Python's words. ctxkeep-core and ctxkeep-map
//! word their errors for the `ctx` command: a flag where a count is checked
//! (`-k must be at least 1`), a command to run (`run \`ctx scan\``). Python
//! callers get the argument (`k must be at least 1`) and the `Workspace`
//! call that does the same (`call \`Workspace.scan()\``).

/// `message` with the CLI's flags and commands said as Python's arguments and calls.
pub(crate) fn pythonic(message: &str) -> String {
    let message = leading_flag(message);
    let message = PHRASES_BEFORE.iter().fold(message, |text, (cli, python)| text.replace(cli, python));
    let message = commands(&message);
    PHRASES_AFTER.iter().fold(message, |text, (cli, python)| text.replace(cli, python))
}

/// The arguments whose checks name them first in a message (`-k must …`, `--since "x": …`).
const ARGUMENTS: [&str; 7] = ["k", "tokens", "before", "after", "since", "until", "depth"];

/// Phrases to replace before the commands in backticks are: those the
/// command rule cannot say well.
const PHRASES_BEFORE: [(&str, &str); 2] = [
    // `build()` scans on its own when asked to; Python has `scan()` for it.
    (" (or `ctx build --scan`)", ""),
    ("--section needs an artifact: give SLUG or", "a section needs an artifact: give slug or"),
];

/// Flags inside a sentence, and what a command became in it.
const PHRASES_AFTER: [(&str, &str); 7] = [
    ("(`--section SLUG`)", "(`artifact(slug, sections=[...])`)"),
    ("\"override_finalized\": true", "override_finalized=True"),
    ("--override-finalized", "override_finalized=True"),
    ("with --slug", "with slug="),
    ("give --section", "give section="),
    ("raise --tokens", "raise tokens="),
    ("run `Workspace.", "call `Workspace."),
];

/// The `Workspace` methods of the commands messages name, longest first
/// where one command begins another.
const CALLS: [(&str, &str); 15] = [
    ("ctx artifact add", "add_artifact"),
    ("ctx artifact list", "artifacts"),
    ("ctx artifact show", "artifact"),
    ("ctx artifact unfinalize", "unfinalize_artifact"),
    ("ctx artifact finalize", "finalize_artifact"),
    ("ctx artifact history", "artifact_history"),
    ("ctx artifact suggestions", "artifact_suggestions"),
    ("ctx artifact restore", "restore_artifact"),
    ("ctx artifact use", "use_artifact"),
    ("ctx frame push", "push_frame"),
    ("ctx frame tree", "frame_tree"),
    ("ctx secrets scan", "secrets_scan"),
    ("ctx update", "update"),
    ("ctx init", "init"),
    ("ctx scan", "scan"),
];

/// `-k must …` → `k must …`, `--since "x": …` → `since="x": …`: a check
/// that names the flag it came from, said as the argument.
fn leading_flag(message: &str) -> String {
    let flag_len = message.find(' ').unwrap_or(0);
    let name = message[..flag_len].trim_start_matches('-').replace('-', "_");
    let dashes = flag_len - message[..flag_len].trim_start_matches('-').len();
    if !(1..=2).contains(&dashes) || !ARGUMENTS.contains(&name.as_str()) {
        return message.to_string();
    }
    let rest = &message[flag_len + 1..];
    let joint = if rest.starts_with('"') { "=" } else { " " };
    format!("{name}{joint}{rest}")
}

/// Every `` `ctx VERB ARGS…` `` of `text` that a `Workspace` call does, as that call.
fn commands(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("`ctx ") {
        let Some(len) = rest[start + 1..].find('`') else { break };
        let command = &rest[start + 1..start + 1 + len];
        out.push_str(&rest[..start]);
        match python_call(command) {
            Some(call) => out.push_str(&format!("`{call}`")),
            None => out.push_str(&rest[start..start + len + 2]),
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// The `Workspace` call that does what `command` (`ctx VERB ARGS…`) does:
/// placeholders (`PATH`, `SLUG`) become argument names, flags keyword
/// arguments set to `True`, other words quoted values.
fn python_call(command: &str) -> Option<String> {
    let (method, args) = CALLS.iter().find_map(|(cli, method)| {
        let args = command.strip_prefix(cli)?;
        (args.is_empty() || args.starts_with(' ')).then_some((method, args))
    })?;
    let args: Vec<String> = args
        .split_whitespace()
        .map(|word| {
            if let Some(flag) = word.strip_prefix("--") {
                format!("{}=True", flag.replace('-', "_"))
            } else if word.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                word.to_ascii_lowercase()
            } else {
                format!("{word:?}")
            }
        })
        .collect();
    Some(format!("Workspace.{method}({})", args.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cli: &str, python: &str) {
        assert_eq!(pythonic(cli), python);
    }

    #[test]
    fn flags_become_arguments() {
        check("-k must be at least 1", "k must be at least 1");
        check("--tokens must be at most 5 (it is 9)", "tokens must be at most 5 (it is 9)");
        check("--before must be at most 1000 (it is 5000)", "before must be at most 1000 (it is 5000)");
        check(
            "--since \"last tuesday\": a time is RFC 3339 in UTC",
            "since=\"last tuesday\": a time is RFC 3339 in UTC",
        );
        // Not an argument of ours, or not a flag: left alone.
        check("--commits must be at least 1", "--commits must be at least 1");
        check("---k must", "---k must");
        check("--x: unknown folder (not in the last scan)", "--x: unknown folder (not in the last scan)");
        check("k must be at least 1", "k must be at least 1");
        check("", "");
    }

    #[test]
    fn commands_become_calls() {
        check(
            "not a ctx workspace (no .ctx/ in /tmp/x or any parent); run `ctx init`",
            "not a ctx workspace (no .ctx/ in /tmp/x or any parent); call `Workspace.init()`",
        );
        check(
            "src: unknown folder (not in the last scan; run `ctx scan`?)",
            "src: unknown folder (not in the last scan; call `Workspace.scan()`?)",
        );
        check("F9: unknown frame (see `ctx frame tree`)", "F9: unknown frame (see `Workspace.frame_tree()`)");
        check(
            "no current frame: push one with `ctx frame push GOAL` or start a task, or name a frame",
            "no current frame: push one with `Workspace.push_frame(goal)` or start a task, or name a frame",
        );
        check(
            "AGENTS.md: line 1: a BEGIN marker without an END after it; nothing was written (`ctx update --repair` removes the markers)",
            "AGENTS.md: line 1: a BEGIN marker without an END after it; nothing was written (`Workspace.update(repair=True)` removes the markers)",
        );
        check(
            "nothing scanned yet: run `ctx scan` first (or `ctx build --scan`)",
            "nothing scanned yet: call `Workspace.scan()` first",
        );
        check("see `ctx artifact suggestions SLUG`", "see `Workspace.artifact_suggestions(slug)`");
        check(
            "--section needs an artifact: give SLUG or `ctx artifact use SLUG`",
            "a section needs an artifact: give slug or `Workspace.use_artifact(slug)`",
        );
        check(
            "The research query names no section: give --section",
            "The research query names no section: give section=",
        );
        // What no call does stays a command.
        check("`ctx artifact frobnicate x` stays", "`ctx artifact frobnicate x` stays");
        check("`ctx initialize` stays", "`ctx initialize` stays");
        check("unclosed `ctx artifact list", "unclosed `ctx artifact list");
    }
}
