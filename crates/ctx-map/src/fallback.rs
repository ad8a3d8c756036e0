//! Definitions in languages without a grammar here, from a line scan: a
//! line that starts (after a little indentation and modifiers) with a
//! defining keyword and a name. Cheap and rough, but a Go or Ruby file in
//! the map shows its functions and types, not just its name.

use crate::tags::{Def, FileTags, Kind};

/// Indentation beyond this is inside something: not scanned.
const MAX_INDENT: usize = 4;

/// Modifiers that may precede a defining keyword.
const MODIFIERS: &[&str] = &[
    "pub",
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "final",
    "abstract",
    "export",
    "async",
    "open",
    "sealed",
    "data",
    "inline",
    "override",
    "virtual",
    "local",
    "extern",
    // Cython's `cdef class _Quoter:`, `cpdef str quote(…)`.
    "cdef",
    "cpdef",
];

/// Defining keywords and the kind of what they define.
const KEYWORDS: &[(&str, Kind)] = &[
    ("def", Kind::Function),
    ("defp", Kind::Function),
    ("defmodule", Kind::Module),
    ("function", Kind::Function),
    ("func", Kind::Function),
    ("fun", Kind::Function),
    ("fn", Kind::Function),
    ("sub", Kind::Function),
    ("proc", Kind::Function),
    ("class", Kind::Class),
    ("struct", Kind::Struct),
    ("interface", Kind::Interface),
    ("trait", Kind::Trait),
    ("enum", Kind::Enum),
    ("module", Kind::Module),
    ("object", Kind::Class),
    ("type", Kind::Type),
];

/// Whether `lang` (the scan's language name) is worth a line scan.
pub fn supports(lang: &str) -> bool {
    matches!(
        lang,
        "go" | "java"
            | "kotlin"
            | "c"
            | "cpp"
            | "csharp"
            | "ruby"
            | "php"
            | "swift"
            | "scala"
            | "shell"
            | "lua"
            | "cython"
    )
}

pub fn extract(source: &str) -> FileTags {
    let mut defs = Vec::new();
    for (row, line) in source.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        if indent > MAX_INDENT {
            continue;
        }
        if let Some((name, kind)) = definition(line.trim_start()) {
            let signature: String = line.trim().trim_end_matches('{').trim_end().chars().take(160).collect();
            defs.push(Def {
                name: name.into(),
                kind,
                line: row as u32 + 1,
                end_line: row as u32 + 1,
                signature,
                left_out: Vec::new(),
                parent: None,
                deprecated: false,
            });
        }
    }
    FileTags { defs, ..FileTags::default() }
}

/// The name and kind a line defines, if it starts with a defining keyword,
/// or is a shell function's head (`_http_complete() {`, `build-docs ()`).
fn definition(line: &str) -> Option<(String, Kind)> {
    if let Some((name, rest)) = line.split_once("()")
        && matches!(rest.trim(), "" | "{")
    {
        let name = name.trim_end();
        let shell_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.');
        if !name.is_empty() && name.chars().all(shell_name) && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Some((name.to_string(), Kind::Function));
        }
    }
    let mut words = line.split_whitespace().skip_while(|w| MODIFIERS.contains(w));
    let keyword = words.next()?;
    let &(_, kind) = KEYWORDS.iter().find(|(k, _)| *k == keyword)?;
    let mut rest = words.next()?;
    // Go methods: `func (r *Recv) Name(`.
    if keyword == "func" && rest.starts_with('(') {
        rest = line.split_once(')')?.1.trim_start();
    }
    // Kotlin extensions and generics: `fun String.shout()`, `fun <T> List<T>.second()`
    // define `shout` and `second`, not the type they extend.
    if keyword == "fun"
        && let Some((head, _)) = line.split_once('(')
        && let Some((_, name)) = head.rsplit_once(|c: char| c == '.' || c.is_whitespace())
    {
        rest = name;
    }
    // Ruby `def self.name`.
    let rest = rest.strip_prefix("self.").unwrap_or(rest);
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((name, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_definitions_of_unparsed_languages() {
        let go = "package pool\n\ntype Pool struct {\n}\n\nfunc New() *Pool {\n}\n\nfunc (p *Pool) Get(ctx Context) (*Conn, error) {\n\tif x { return nil }\n}\n";
        let names: Vec<(String, Kind, u32)> =
            extract(go).defs.into_iter().map(|d| (d.name.into(), d.kind, d.line)).collect();
        assert_eq!(
            names,
            [
                ("Pool".into(), Kind::Type, 3),
                ("New".into(), Kind::Function, 6),
                ("Get".into(), Kind::Function, 9)
            ]
        );
        let ruby = "class Cart\n  def self.empty\n  end\n  def add(item)\n  end\nend\n";
        let names: Vec<String> = extract(ruby).defs.into_iter().map(|d| d.name.into()).collect();
        assert_eq!(names, ["Cart", "empty", "add"]);
        assert!(extract("x = 1\n        def deep():\n").defs.is_empty());
        let kotlin =
            "fun String.shout() = uppercase()\nfun <T> List<T>.second(): T = this[1]\nfun main() {\n}\n";
        let names: Vec<String> = extract(kotlin).defs.into_iter().map(|d| d.name.into()).collect();
        assert_eq!(names, ["shout", "second", "main"]);
        // Shell functions, with or without `function`; a call is none.
        let shell = "_http_complete() {\n    local cur\n}\nbuild-docs ()\n{\n}\nfunction greet {\n}\nmain()\nx=$(f())\n";
        let names: Vec<String> = extract(shell).defs.into_iter().map(|d| d.name.into()).collect();
        assert_eq!(names, ["_http_complete", "build-docs", "greet", "main"]);
        // Cython: Python's `def` and `class`, and their C kin.
        let cython = "cdef class _Quoter:\n    def __init__(self, *, bint safe=False):\n        pass\n\
                      cpdef str quote(str val):\n    pass\ndef _unquote(val):\n    pass\n";
        let names: Vec<String> = extract(cython).defs.into_iter().map(|d| d.name.into()).collect();
        assert_eq!(names, ["_Quoter", "__init__", "_unquote"]);
    }
}
