//! Whether a definition is deprecated, as its language marks it: a JSDoc
//! `@deprecated` tag, Rust's `#[deprecated]`, a Python `@deprecated`
//! decorator, a docstring's `.. deprecated::` or a `DeprecationWarning` the
//! body raises before anything else. An agent shown a deprecated function as
//! the package's API calls what its maintainers are taking away; the map and
//! the folder context say so, and rank such definitions after the others.

use crate::lang::Lang;

/// How many lines of a Python body are read for a docstring's directive or
/// the warning the body opens with.
const PYTHON_BODY_LINES: usize = 12;

/// Whether the definition whose first line is `first` (0-based, its
/// decorators or attributes included or not) and last line `last` in
/// `lines` is marked deprecated.
pub(crate) fn is_deprecated(lines: &[&str], lang: Lang, first: usize, last: usize) -> bool {
    if lines.get(first).is_some_and(|l| marks(l.trim_start(), lang)) || marked_above(lines, lang, first) {
        return true;
    }
    lang == Lang::Python && python_body_says_so(lines, first, last)
}

/// Whether the comments, attributes and decorators right above `first` mark it.
fn marked_above(lines: &[&str], lang: Lang, first: usize) -> bool {
    for line in lines[..first.min(lines.len())].iter().rev().map(|l| l.trim()) {
        let annotation = line.starts_with("//")
            || line.starts_with("/*")
            || line.starts_with('*')
            || line.starts_with("#[")
            || line.starts_with('@')
            || (lang == Lang::Python && line.starts_with('#'));
        if !annotation {
            return false;
        }
        if marks(line, lang) {
            return true;
        }
    }
    false
}

/// Whether one line of what precedes a definition marks it deprecated.
fn marks(line: &str, lang: Lang) -> bool {
    match lang {
        Lang::Rust => line.starts_with("#[deprecated"),
        Lang::Python => {
            // `@deprecated("…")`, `@typing_extensions.deprecated(…)`, `@warnings.deprecated`.
            line.strip_prefix('@').is_some_and(|d| {
                let name = d.split('(').next().unwrap_or(d).trim();
                name == "deprecated" || name.ends_with(".deprecated")
            })
        }
        // JSDoc's tag, in a `/** */` block or on one line of it.
        _ => {
            let tag = line.find("@deprecated");
            tag.is_some_and(|at| {
                let after = line[at + "@deprecated".len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric())
                    && (line.starts_with('*') || line.starts_with("/*"))
            })
        }
    }
}

/// Whether a Python body says it is deprecated before it does anything: its
/// docstring's `.. deprecated::` directive, or a `warnings.warn(…,
/// DeprecationWarning)` at the body's own level (one inside an `if` warns of
/// a deprecated argument, not of the function).
fn python_body_says_so(lines: &[&str], first: usize, last: usize) -> bool {
    let header = lines[first.min(lines.len())..].iter().position(|l| {
        let code = l.split('#').next().unwrap_or("").trim_end();
        code.ends_with(':') && !code.trim_start().starts_with('@')
    });
    let Some(header) = header.map(|h| first + h) else { return false };
    let end = last.min(header + PYTHON_BODY_LINES).min(lines.len().saturating_sub(1));
    let body = lines.get(header + 1..=end).unwrap_or_default();
    let Some(level) = body.iter().find(|l| !l.trim().is_empty()).map(|l| indent(l)) else { return false };
    let mut in_docstring = false;
    for (i, line) in body.iter().enumerate() {
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        if indent(line) < level {
            break;
        }
        let quotes = text.matches("\"\"\"").count() + text.matches("'''").count();
        if text.starts_with(".. deprecated::") && (in_docstring || quotes > 0) {
            return true;
        }
        if in_docstring || (i == 0 && quotes > 0) {
            in_docstring ^= quotes % 2 == 1;
            continue;
        }
        if indent(line) == level && text.starts_with("warnings.warn(") {
            let statement = body[i..].iter().take(4).map(|l| l.trim()).collect::<Vec<_>>().join(" ");
            return statement.contains("DeprecationWarning");
        }
        // The first statement that is neither: the body has begun its work.
        if indent(line) == level {
            return false;
        }
    }
    false
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the definition on the line holding `at` is deprecated.
    fn deprecated(lang: Lang, text: &str, at: &str) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        let first = lines.iter().position(|l| l.contains(at)).unwrap();
        is_deprecated(&lines, lang, first, lines.len() - 1)
    }

    #[test]
    fn each_language_s_own_mark() {
        let ts = "/**\n * @deprecated Please use `getRequestHeader`.\n */\nexport function getHeader() {}\n\
                  /** Reads a header. */\nexport function getRequestHeader() {}\n";
        assert!(deprecated(Lang::TypeScript, ts, "function getHeader"));
        assert!(!deprecated(Lang::TypeScript, ts, "function getRequestHeader"));
        let js = "/** @deprecated */\nfunction old() {}\n// the @deprecatedFoo helper\nfunction kept() {}\n";
        assert!(deprecated(Lang::JavaScript, js, "function old"));
        assert!(!deprecated(Lang::JavaScript, js, "function kept"));
        let rust = "/// Old.\n#[deprecated(since = \"2.0\", note = \"use `new`\")]\n#[inline]\npub fn old() {}\n\npub fn new() {}\n";
        assert!(deprecated(Lang::Rust, rust, "pub fn old"));
        assert!(!deprecated(Lang::Rust, rust, "pub fn new"));
        let python = "@typing_extensions.deprecated(\"use new\")\ndef old():\n    pass\n\n@functools.cache\ndef new():\n    pass\n";
        assert!(deprecated(Lang::Python, python, "def old"));
        assert!(!deprecated(Lang::Python, python, "def new"));
    }

    #[test]
    fn a_python_body_that_says_so_before_its_work() {
        let directive = "def old(x):\n    \"\"\"Old.\n\n    .. deprecated:: 8.2\n        Use new.\n    \"\"\"\n    return x\n";
        assert!(deprecated(Lang::Python, directive, "def old"));
        let warns = "def old(x):\n    \"\"\"Old.\"\"\"\n    warnings.warn(\n        \"use new\",\n        DeprecationWarning,\n        stacklevel=2,\n    )\n    return x\n";
        assert!(deprecated(Lang::Python, warns, "def old"));
        // A warning about one argument, inside an `if`, deprecates the argument only.
        let argument = "def run(x, old=None):\n    if old is not None:\n        warnings.warn(\"old\", DeprecationWarning)\n    return x\n";
        assert!(!deprecated(Lang::Python, argument, "def run"));
        // Nor does a warning after the body's work has begun, or another kind of warning.
        let later = "def run(x):\n    y = x + 1\n    warnings.warn(\"no\", DeprecationWarning)\n";
        assert!(!deprecated(Lang::Python, later, "def run"));
        let other = "def run(x):\n    warnings.warn(\"slow\", RuntimeWarning)\n";
        assert!(!deprecated(Lang::Python, other, "def run"));
        // A docstring that only mentions the word.
        let mention = "def run(x):\n    \"\"\"Replaces the deprecated `walk`.\"\"\"\n    return x\n";
        assert!(!deprecated(Lang::Python, mention, "def run"));
    }
}
