//! The languages the map parses with tree-sitter, and their tags queries.

use std::sync::OnceLock;

use rustc_hash::FxHashSet as HashSet;

use tree_sitter::{Language, Query};

/// A language with a grammar and a tags query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
}

const RUST_TAGS: &str = include_str!("../queries/rust.scm");
const PYTHON_TAGS: &str = include_str!("../queries/python.scm");
const JAVASCRIPT_TAGS: &str = include_str!("../queries/javascript.scm");
const TYPESCRIPT_TAGS: &str = include_str!("../queries/typescript.scm");
const JSX_TAGS: &str = include_str!("../queries/jsx.scm");
const RUST_LIBRARY: &str = include_str!("../queries/library/rust.txt");
const PYTHON_LIBRARY: &str = include_str!("../queries/library/python.txt");
const JAVASCRIPT_LIBRARY: &str = include_str!("../queries/library/javascript.txt");

/// The names a language's standard library gives: its `[names]` and `[methods]`.
struct Library {
    names: HashSet<&'static str>,
    methods: HashSet<&'static str>,
}

impl Library {
    fn parse(text: &'static str) -> Library {
        let (mut names, mut methods) = (HashSet::default(), HashSet::default());
        let mut section = None;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            match line {
                "[names]" => section = Some(&mut names),
                "[methods]" => section = Some(&mut methods),
                name => {
                    if let Some(set) = section.as_deref_mut() {
                        set.insert(name);
                    }
                }
            }
        }
        Library { names, methods }
    }
}

impl Lang {
    pub const ALL: [Lang; 5] = [Lang::Rust, Lang::Python, Lang::JavaScript, Lang::TypeScript, Lang::Tsx];

    /// From the scan's language name (`files.lang`).
    pub fn from_name(name: &str) -> Option<Lang> {
        Some(match name {
            "rust" => Lang::Rust,
            "python" => Lang::Python,
            "javascript" => Lang::JavaScript,
            "typescript" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
        }
    }

    /// Whether `name` is a type or value its standard library gives every file
    /// (Rust's prelude `Result`, `Err`, Python's `ValueError`, `type`,
    /// JavaScript's `Promise`): a use of it says little of which file of the
    /// repository is meant, even where one defines it too (just's dev tools
    /// each define a `type Result`, and a `FromStr` impl's `type Err` took
    /// every `Err(…)`). Listed in `queries/library/<language>.txt`.
    pub fn is_library_name(self, name: &str) -> bool {
        self.library().names.contains(name)
    }

    /// Whether `name` is a method its standard library gives everyday values
    /// (a Rust `Vec`'s `push`, a Python `dict`'s `get`, a JavaScript array's
    /// `map`): a call of it on a value is most likely the library's, not that
    /// of a method of the repository's own with the same name (casey/just's
    /// `Value::push` and `Table::insert` collected every `vec.push()` and
    /// `map.insert()`, and led its map).
    pub fn is_library_method(self, name: &str) -> bool {
        self.library().methods.contains(name)
    }

    fn library(self) -> &'static Library {
        static LIBRARIES: [OnceLock<Library>; 3] = [const { OnceLock::new() }; 3];
        let (slot, text) = match self {
            Lang::Rust => (0, RUST_LIBRARY),
            Lang::Python => (1, PYTHON_LIBRARY),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => (2, JAVASCRIPT_LIBRARY),
        };
        LIBRARIES[slot].get_or_init(|| Library::parse(text))
    }

    /// JavaScript or a dialect of it (TypeScript, TSX): one grammar's node kinds.
    pub fn is_javascript_like(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
    }

    pub fn grammar(self) -> Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        }
    }

    /// The tags query, compiled on first use, once per process (compiling
    /// one takes tens of milliseconds: a warm map with one changed file
    /// compiles only its language's). `Err` only if a bundled query does not
    /// compile against its grammar, which the tests rule out.
    pub fn query(self) -> Result<&'static Query, String> {
        static QUERIES: [OnceLock<Result<Query, String>>; 5] = [const { OnceLock::new() }; 5];
        let index = Lang::ALL.iter().position(|&l| l == self).unwrap_or(0);
        QUERIES[index]
            .get_or_init(|| {
                let source = match self {
                    Lang::Rust => RUST_TAGS.to_string(),
                    Lang::Python => PYTHON_TAGS.to_string(),
                    // A JavaScript class extends an expression; TypeScript's has an extends clause.
                    // A class field holding a function is a method (TypeScript's in its own file).
                    Lang::JavaScript => format!(
                        "{JAVASCRIPT_TAGS}\n{JSX_TAGS}\n(class_heritage (identifier) @name) @reference.type\n\
                         (field_definition property: [(property_identifier) (private_property_identifier)] @name \
                         value: [(arrow_function) (function_expression)]) @definition.method"
                    ),
                    Lang::TypeScript => format!("{JAVASCRIPT_TAGS}\n{TYPESCRIPT_TAGS}"),
                    Lang::Tsx => format!("{JAVASCRIPT_TAGS}\n{TYPESCRIPT_TAGS}\n{JSX_TAGS}"),
                };
                Query::new(&self.grammar(), &source).map_err(|err| format!("{} tags query: {err}", self.name()))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Whether `text` is minified or bundled code, a build's output that nobody
/// edits (mdBook's vendored `ace.js`, `highlight.js`: a license header, then
/// lines of thousands of characters): most of its bytes are in lines over
/// 500 characters and it has few other lines. Such a file names
/// nothing and holds no words: its definitions are one-letter locals, and its
/// text would match any task. A source file with one long data line among
/// its code keeps both.
pub fn looks_minified(text: &str) -> bool {
    const LONG_LINE: usize = 500;
    const MOST_SHORT_LINES: usize = 100;
    if text.len() < 2 * LONG_LINE {
        return false;
    }
    let (mut long_bytes, mut short_lines) = (0, 0);
    for line in text.lines() {
        if line.len() > LONG_LINE {
            long_bytes += line.len();
        } else {
            short_lines += 1;
            if short_lines >= MOST_SHORT_LINES {
                return false;
            }
        }
    }
    long_bytes * 2 > text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_s_library_names_and_methods_are_read_from_its_list() {
        let cases = [
            (Lang::Rust, "Result", "push"),
            (Lang::Python, "ValueError", "append"),
            (Lang::TypeScript, "Promise", "forEach"),
            (Lang::Tsx, "Promise", "forEach"),
        ];
        for (lang, name, method) in cases {
            assert!(lang.is_library_name(name) && lang.is_library_method(method), "{lang:?}");
            // Each in its own section only; comments and headings are no names.
            assert!(!lang.is_library_method(name) && !lang.is_library_name(method), "{lang:?}");
            assert!(!lang.is_library_name("[names]") && !lang.is_library_name("#"), "{lang:?}");
        }
        assert!(!Lang::Rust.is_library_name("Recipe") && !Lang::Python.is_library_method("render"));
    }

    #[test]
    fn minified_code_is_told_from_code_with_a_long_line() {
        let bundle =
            format!("/*! ace 1.4.12 | BSD License */\n{}\n", "var a=function(e,t){return e+t};".repeat(200));
        assert!(looks_minified(&bundle));
        let code: String = (0..120).map(|i| format!("def f{i}(x):\n    return x + {i}\n")).collect();
        assert!(!looks_minified(&code));
        // One long data line among the code: still code.
        let with_data = format!("{code}BLOB = \"{}\"\n", "A".repeat(20_000));
        assert!(!looks_minified(&with_data));
        assert!(!looks_minified("x = 1\n"));
        // A few short lines around a bundle do not make it code.
        let short_lines: String = (0..30).map(|i| format!("// line {i}\n")).collect();
        assert!(looks_minified(&format!("{short_lines}{bundle}")));
    }

    #[test]
    fn every_query_compiles() {
        for lang in Lang::ALL {
            lang.query().unwrap();
            assert_eq!(Lang::from_name(lang.name()), Some(lang));
        }
    }
}
