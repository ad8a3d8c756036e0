//! The environments a `tox.ini` or `tox.toml` defines: like a noxfile's
//! sessions, how the project really checks itself (structlog's `tox -e
//! typing-mypy` runs `mypy src`, where a bare `mypy .` fails on its docs and
//! demo scripts).

/// The environment names of `text`, in order: `env_list` (or `envlist`)
/// entries and `[testenv:…]` sections (`[env.…]` tables in `tox.toml`),
/// their factor groups expanded (`typing-{mypy,pyright}` is `typing-mypy`,
/// `typing-pyright`). A group with a range (`3.1{0-5}`) stands for Python
/// versions, one environment each: none of them is listed.
pub(super) fn environments(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut in_list = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let header = trimmed.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
        if let Some(header) = header {
            in_list = false;
            let section = header.strip_prefix("testenv:").or_else(|| header.strip_prefix("env."));
            names.extend(section.map(|s| s.trim_matches('"')).into_iter().flat_map(expand));
            continue;
        }
        let key = trimmed.split(['=']).next().unwrap_or("").trim();
        let value = if matches!(key, "env_list" | "envlist") {
            in_list = true;
            trimmed.split_once('=').map_or("", |(_, v)| v)
        } else if in_list
            && (line.starts_with([' ', '\t']) || trimmed.starts_with(']'))
            && !trimmed.contains('=')
        {
            trimmed
        } else {
            in_list = false;
            continue;
        };
        for entry in split_entries(value) {
            names.extend(expand(entry));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| !n.is_empty() && seen.insert(n.clone()));
    names
}

/// The entries of a list's line: `a, b-{c,d}` (ini) or `["a", "b"]` (toml),
/// commas inside braces kept.
fn split_entries(value: &str) -> Vec<&str> {
    let mut entries = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in value.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                entries.push(&value[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    entries.push(&value[start..]);
    entries
        .into_iter()
        .map(|e| e.trim().trim_matches(['[', ']', '"', '\'', ' ']))
        .filter(|e| !e.is_empty())
        .collect()
}

/// Each name a factor expression stands for; none for one over a range of versions.
fn expand(expression: &str) -> Vec<String> {
    let Some(open) = expression.find('{') else { return vec![expression.to_string()] };
    let Some(close) = expression[open..].find('}').map(|at| open + at) else { return Vec::new() };
    let group = &expression[open + 1..close];
    if group.contains('-') && group.chars().any(|c| c.is_ascii_digit()) {
        return Vec::new();
    }
    let (head, tail) = (&expression[..open], &expression[close + 1..]);
    group.split(',').flat_map(|choice| expand(&format!("{head}{}{tail}", choice.trim()))).collect()
}

/// Whether an environment runs for one Python version (`py312`, `3.13-tests`, `pypy3`).
pub(super) fn is_per_version(name: &str) -> bool {
    name.split('-').any(|factor| {
        let version = factor.strip_prefix("pypy").or_else(|| factor.strip_prefix("py")).unwrap_or(factor);
        !version.is_empty() && version.chars().all(|c| c.is_ascii_digit() || c == '.')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environments_are_the_list_s_and_the_sections_expanded() {
        // structlog's tox.ini, cut down.
        let text = "[tox]\nrequires =\n    tox>=4\nenv_list =\n    pre-commit,\n    3.1{0-5}-{tests,mypy}\n    \
                    typing-{mypy,pyright},\n    docs-{build,doctests},\n\n[testenv]\ncommands =\n    tests: pytest\n\n\
                    [testenv:docs-watch]\ncommands = x\n[testenv:typing-{pyright,mypy}]\ncommands = mypy src\n";
        assert_eq!(
            environments(text),
            ["pre-commit", "typing-mypy", "typing-pyright", "docs-build", "docs-doctests", "docs-watch"]
        );
        let toml = "env_list = [\"lint\", \"py312\", \"type\"]\n[env.lint]\ncommands = [[\"ruff\"]]\n[env.\"docs\"]\n";
        assert_eq!(environments(toml), ["lint", "py312", "type", "docs"]);
        assert_eq!(environments("[tox]\nenvlist = py3{10,11}, lint\n"), ["py310", "py311", "lint"]);
        assert!(is_per_version("py312") && is_per_version("3.13-tests") && is_per_version("pypy3"));
        assert!(!is_per_version("typing-mypy") && !is_per_version("pre-commit"));
    }
}
