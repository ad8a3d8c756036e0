//! Tags: the definitions and references of one source file.
//!
//! Parsed with tree-sitter and the language's tags query ([`Lang::query`]);
//! a file with syntax errors yields what parses. Languages without a grammar
//! get their definitions from a cheap line scan ([`fallback`]). Definitions
//! carry their signature (the lines before the body) and the definition
//! around them (the class of a method, the impl of a Rust method), so a map
//! can show a method in its context.

use std::cell::RefCell;

use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};
use tree_sitter::{Node, Parser, QueryCursor, StreamingIterator};

use crate::lang::Lang;

/// Bumped when what extraction yields changes: cached tags are re-parsed.
pub const TAGS_VERSION: u32 = 4;

/// Most lines of a signature.
const MAX_SIGNATURE_LINES: usize = 4;
/// Longest signature line kept, in characters.
const MAX_SIGNATURE_LINE: usize = 160;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Type,
    Constant,
    Module,
    Macro,
    /// A Rust `impl` block: context for its methods, not a definition of a name.
    Impl,
}

impl Kind {
    fn parse(name: &str) -> Option<Kind> {
        Some(match name {
            "function" => Kind::Function,
            "method" => Kind::Method,
            "class" => Kind::Class,
            "struct" => Kind::Struct,
            "enum" => Kind::Enum,
            "trait" => Kind::Trait,
            "interface" => Kind::Interface,
            "type" => Kind::Type,
            "constant" => Kind::Constant,
            "module" => Kind::Module,
            "macro" => Kind::Macro,
            "impl" => Kind::Impl,
            _ => return None,
        })
    }

    /// Whether the name it carries is defined here (an impl only names a type defined elsewhere).
    pub fn defines_name(self) -> bool {
        self != Kind::Impl
    }

    /// Kinds whose functions are methods.
    fn holds_methods(self) -> bool {
        matches!(self, Kind::Impl | Kind::Trait | Kind::Class | Kind::Interface)
    }
}

/// A definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    pub name: String,
    pub kind: Kind,
    /// First and last line of the whole definition, 1-based.
    pub line: u32,
    pub end_line: u32,
    /// The lines that introduce it, without the body.
    pub signature: String,
    /// The definition it sits in (index into the file's defs), if any.
    pub parent: Option<u32>,
}

/// What one file defines and references.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTags {
    /// In source order.
    pub defs: Vec<Def>,
    /// Referenced names with how often, sorted by name.
    pub refs: Vec<(String, u32)>,
    /// The parse had errors (what parsed is still here).
    pub syntax_errors: bool,
}

/// Tags of `source` in `lang`.
pub fn extract(lang: Lang, source: &str) -> Result<FileTags, String> {
    thread_local! {
        static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::default());
    }
    let query = lang.query()?;
    let tree = PARSERS.with_borrow_mut(|parsers| {
        let parser = match parsers.entry(lang) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let mut parser = Parser::new();
                parser.set_language(&lang.grammar()).map_err(|err| format!("{}: {err}", lang.name()))?;
                entry.insert(parser)
            }
        };
        parser.parse(source, None).ok_or_else(|| format!("{}: the parser gave up", lang.name()))
    })?;
    let root = tree.root_node();
    let bytes = source.as_bytes();
    let names = query.capture_names();

    struct RawDef<'t> {
        node: Node<'t>,
        name: String,
        name_range: (usize, usize),
        kind: Kind,
    }
    let mut raw: Vec<RawDef> = Vec::new();
    let mut refs: Vec<((usize, usize), String)> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, root, bytes);
    while let Some(m) = matches.next() {
        let mut name = None;
        let mut tagged = None;
        for capture in m.captures() {
            let capture_name = names[capture.index as usize];
            if capture_name == "name" {
                name = Some(capture.node);
            } else if let Some(kind) = capture_name.strip_prefix("definition.") {
                tagged = Some((Some(kind), capture.node));
            } else if capture_name.starts_with("reference.") {
                tagged = Some((None, capture.node));
            }
        }
        let (Some(name_node), Some((kind, node))) = (name, tagged) else { continue };
        let Ok(text) = name_node.utf8_text(bytes) else { continue };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let range = (name_node.start_byte(), name_node.end_byte());
        match kind.and_then(Kind::parse) {
            Some(kind) => raw.push(RawDef { node, name: text.to_string(), name_range: range, kind }),
            None if kind.is_none() => refs.push((range, text.to_string())),
            None => {}
        }
    }

    // One definition per node and name (a Rust method matches as function twice).
    raw.sort_by(|a, b| {
        a.node.start_byte().cmp(&b.node.start_byte()).then(b.node.end_byte().cmp(&a.node.end_byte()))
    });
    raw.dedup_by(|b, a| a.node.id() == b.node.id() && a.name == b.name);

    let lines: Vec<&str> = source.lines().collect();
    // Parents by containment: a stack of the definitions still open.
    let mut defs: Vec<Def> = Vec::with_capacity(raw.len());
    let mut open: Vec<usize> = Vec::new();
    for def in &raw {
        while let Some(&top) = open.last() {
            if raw[top].node.end_byte() >= def.node.end_byte()
                && raw[top].node.start_byte() <= def.node.start_byte()
            {
                break;
            }
            open.pop();
        }
        let parent = open.last().copied();
        let kind = match (def.kind, parent.map(|p| defs[p].kind)) {
            (Kind::Function, Some(parent)) if parent.holds_methods() => Kind::Method,
            (kind, _) => kind,
        };
        defs.push(Def {
            name: def.name.clone(),
            kind,
            line: def.node.start_position().row as u32 + 1,
            end_line: def.node.end_position().row as u32 + 1,
            signature: signature(&lines, def.node),
            parent: parent.map(|p| p as u32),
        });
        open.push(defs.len() - 1);
    }

    // References, less the names of definitions (a query may capture those as uses too).
    let def_names: rustc_hash::FxHashSet<(usize, usize)> =
        raw.iter().filter(|d| d.kind.defines_name()).map(|d| d.name_range).collect();
    let mut counts: HashMap<String, u32> = HashMap::default();
    refs.sort();
    refs.dedup();
    for (range, name) in refs {
        if !def_names.contains(&range) {
            *counts.entry(name).or_default() += 1;
        }
    }
    let mut refs: Vec<(String, u32)> = counts.into_iter().collect();
    refs.sort();
    Ok(FileTags { defs, refs, syntax_errors: root.has_error() })
}

/// The lines (of `source`, split into lines) of `node` before its body (at most [`MAX_SIGNATURE_LINES`]),
/// each cut to [`MAX_SIGNATURE_LINE`] characters, without a trailing `{`.
fn signature(source: &[&str], node: Node) -> String {
    // `const x = …` is a declarator inside a declaration (inside an export): show all of it.
    let mut node = node;
    if node.kind() == "variable_declarator" {
        while let Some(parent) = node.parent() {
            if !matches!(parent.kind(), "lexical_declaration" | "variable_declaration" | "export_statement") {
                break;
            }
            node = parent;
        }
    }
    let start = node.start_position().row;
    let body = node.child_by_field_name("body");
    let mut last = match body {
        Some(body) if body.start_position().row > start => {
            let row = body.start_position().row;
            // `) -> T {` puts the end of the signature on the body's first line.
            let line = source.get(row).copied().unwrap_or("");
            let before = line.get(..body.start_position().column).unwrap_or("");
            if before.trim().is_empty() { row - 1 } else { row }
        }
        _ => start,
    };
    last = last.min(start + MAX_SIGNATURE_LINES - 1).min(node.end_position().row);
    let lines: &[&str] = source.get(start..=last).unwrap_or_default();
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        // The first line starts at the node (a definition may follow other code on its line).
        let line = if i == 0 { line.get(node.start_position().column..).unwrap_or(line) } else { line };
        let mut line = line.trim_end().to_string();
        if i + 1 == lines.len() {
            line = line.trim_end_matches('{').trim_end().to_string();
        }
        if line.chars().count() > MAX_SIGNATURE_LINE {
            line = line.chars().take(MAX_SIGNATURE_LINE).collect::<String>() + " …";
        }
        out.push(line);
    }
    // Continuation lines keep their indentation relative to the first.
    let indent = source.get(start).map_or(0, |l| leading(l));
    out.iter()
        .enumerate()
        .map(
            |(i, l)| {
                if i == 0 { l.clone() } else { l.get(indent.min(leading(l))..).unwrap_or(l).to_string() }
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

fn leading(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(lang: Lang, source: &str) -> Vec<(String, Kind, u32, Option<u32>)> {
        extract(lang, source).unwrap().defs.into_iter().map(|d| (d.name, d.kind, d.line, d.parent)).collect()
    }

    #[test]
    fn rust_methods_sit_in_their_impl() {
        let source = "pub struct Pool;\nimpl Pool {\n    pub fn get(&self) -> Conn {\n        make()\n    }\n}\nfn make() -> Conn { Conn }\n";
        let tags = extract(Lang::Rust, source).unwrap();
        let got: Vec<_> = tags.defs.iter().map(|d| (d.name.as_str(), d.kind, d.parent)).collect();
        assert_eq!(
            got,
            [
                ("Pool", Kind::Struct, None),
                ("Pool", Kind::Impl, None),
                ("get", Kind::Method, Some(1)),
                ("make", Kind::Function, None)
            ]
        );
        assert_eq!(tags.defs[2].signature, "pub fn get(&self) -> Conn");
        assert!(tags.refs.iter().any(|(n, c)| n == "make" && *c == 1), "{:?}", tags.refs);
        assert!(tags.refs.iter().any(|(n, _)| n == "Conn"));
        // The struct's own name is not a use of it; the impl's type is.
        assert_eq!(tags.refs.iter().find(|(n, _)| n == "Pool").map(|r| r.1), Some(1));
    }

    #[test]
    fn python_multi_line_signatures_and_methods() {
        let source = "class Loop(Base):\n    def run(self,\n            until=None):\n        return helper()\n\nLIMIT = 10\n";
        let tags = extract(Lang::Python, source).unwrap();
        assert_eq!(
            defs(Lang::Python, source),
            [
                ("Loop".into(), Kind::Class, 1, None),
                ("run".into(), Kind::Method, 2, Some(0)),
                ("LIMIT".into(), Kind::Constant, 6, None),
            ]
        );
        assert_eq!(tags.defs[1].signature, "def run(self,\n        until=None):");
        assert!(tags.refs.iter().any(|(n, _)| n == "Base"));
        assert!(tags.refs.iter().any(|(n, _)| n == "helper"));
    }

    #[test]
    fn syntax_errors_still_yield_what_parses() {
        let tags = extract(Lang::Python, "def good():\n    pass\n\ndef broken(:\n").unwrap();
        assert!(tags.syntax_errors);
        assert!(tags.defs.iter().any(|d| d.name == "good"));
    }
}
