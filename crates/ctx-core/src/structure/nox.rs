//! The sessions a `noxfile.py` defines: a Python project's own task runner
//! (urllib3's `nox -rs lint`, `nox -s mypy`), which says how the project is
//! really linted and checked, unlike a tool's bare default (`mypy .`).

/// The session names of `text`, a noxfile, in order: each function decorated
/// with `@nox.session` (over one or several lines), or the `name=` it gives.
pub(super) fn sessions(text: &str) -> Vec<String> {
    let mut sessions = Vec::new();
    // Inside a session's decorator: the name it gives, if any yet.
    let mut decorated: Option<Option<String>> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("@nox.session") || trimmed.starts_with("@session") {
            decorated = Some(None);
        }
        if let Some(given) = decorated.as_mut()
            && given.is_none()
        {
            *given = given_name(trimmed);
        }
        if let Some(rest) = trimmed.strip_prefix("def ")
            && let Some(given) = decorated.take()
        {
            let name = rest.split('(').next().unwrap_or_default().trim();
            sessions.push(given.unwrap_or_else(|| name.to_string()));
        }
    }
    sessions
}

/// `name="lint"` in a decorator's line.
fn given_name(line: &str) -> Option<String> {
    let rest = line.split_once("name=")?.1.trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inside = &rest[1..];
    Some(inside[..inside.find(quote)?].to_string())
}

/// What a session of that name is for, when its name alone does not say it
/// in [`super::purpose_of`]'s words: the type checkers check.
pub(super) fn purpose_of_checker(name: &str) -> Option<&'static str> {
    matches!(name, "mypy" | "pyright" | "typecheck" | "type_check" | "types" | "typing").then_some("check")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_the_decorated_functions_or_the_names_they_are_given() {
        // urllib3's noxfile, cut down.
        let text = "import nox\n\ndef tests_impl(session, extras=None):\n    pass\n\n\
                    @nox.session(\n    python=[\"3.10\", \"3.11\"],\n)\ndef test(session: nox.Session) -> None:\n    tests_impl(session)\n\n\
                    @nox.session(venv_backend=\"virtualenv\")  # a comment\ndef downstream_botocore(session):\n    pass\n\n\
                    @nox.session()\ndef lint(session):\n    pass\n\n\
                    @nox.session(name=\"type-check\", python=\"3.12\")\ndef mypy(session):\n    pass\n\n\
                    @nox.session\ndef docs(session):\n    pass\n";
        assert_eq!(sessions(text), ["test", "downstream_botocore", "lint", "type-check", "docs"]);
    }
}
