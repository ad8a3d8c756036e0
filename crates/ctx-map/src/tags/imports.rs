//! Imports as tags see them: whether a captured name is part of one, the
//! module it comes from as written, whether it is bound under another name,
//! and Rust's `pub use`.

use tree_sitter::Node;

use crate::lang::Lang;

/// Whether a reference's captured node is an import statement's part.
pub(super) fn node_is_import(node: Node) -> bool {
    matches!(
        node.kind(),
        "import_from_statement"
            | "import_specifier"
            | "import_clause"
            | "use_declaration"
            | "use_list"
            | "use_as_clause"
            // `export { b } from './b'` imports what it passes on.
            | "export_specifier"
    )
}

/// The module an imported name at `name` comes from, as written: Python's
/// `from uvicorn.server import Server` (`uvicorn.server`, `.server`), an ES
/// import's or re-export's source (`./server`), the path of a Rust `use` (`crate::server`
/// of `use crate::server::{Server, State}`). `None` for a name that is
/// itself the module (`import os`, `use serde;`).
pub(super) fn import_source(lang: Lang, name: Node, bytes: &[u8]) -> Option<String> {
    let text = |n: Node| n.utf8_text(bytes).ok();
    let up = |kind: &str| std::iter::successors(name.parent(), |n| n.parent()).find(|n| n.kind() == kind);
    match lang {
        Lang::Python => {
            Some(text(up("import_from_statement")?.child_by_field_name("module_name")?)?.to_string())
        }
        Lang::Rust => {
            // The path the name hangs from, then the paths of the lists around it.
            let mut path: Vec<&str> = Vec::new();
            let parent = name.parent()?;
            if parent.kind() == "scoped_identifier" {
                path.extend(parent.child_by_field_name("path").and_then(text));
            }
            for list in std::iter::successors(Some(parent), |n| n.parent()) {
                if list.kind() == "use_declaration" {
                    break;
                }
                if list.kind() == "scoped_use_list" {
                    path.insert(0, list.child_by_field_name("path").and_then(text)?);
                }
            }
            (!path.is_empty()).then(|| path.join("::"))
        }
        _ if lang.is_javascript_like() => {
            let statement = up("import_statement").or_else(|| up("export_statement"))?;
            // (`export { c }` of the file's own `c` has none.)
            let source = statement.child_by_field_name("source")?;
            Some(text(source)?.trim_matches(['"', '\'', '`']).to_string())
        }
        _ => None,
    }
}

/// Whether the imported or re-exported name at `name` is bound under another
/// (Python's `import tqdm as tqdm_gui`, ES `export { a as b }`, Rust's `use a as b`).
pub(super) fn renamed_import(name: Node) -> bool {
    let mut at = name;
    // Python's `dotted_name` holds the name; Rust's `use_as_clause` its path.
    while let Some(parent) = at.parent() {
        if matches!(
            parent.kind(),
            "aliased_import" | "import_specifier" | "export_specifier" | "use_as_clause"
        ) {
            let alias = parent.child_by_field_name("alias");
            return alias.is_some_and(|alias| alias.id() != at.id() && alias.id() != name.id());
        }
        if !matches!(parent.kind(), "dotted_name" | "scoped_identifier") {
            return false;
        }
        at = parent;
    }
    false
}

/// The name a renamed import at `name` binds ([`renamed_import`]).
pub(super) fn renamed_to(name: Node, bytes: &[u8]) -> Option<String> {
    let clause = std::iter::successors(name.parent(), |n| n.parent()).find(|n| {
        matches!(n.kind(), "aliased_import" | "import_specifier" | "export_specifier" | "use_as_clause")
    })?;
    Some(clause.child_by_field_name("alias")?.utf8_text(bytes).ok()?.to_string())
}

/// Whether the import captured at `node` is Rust's `pub use` (not
/// `pub(crate) use`): the file passes the name on to its own users; not from
/// inside an inline module it keeps private or hidden (rand's `#[doc(hidden)]
/// pub mod hidden_export { pub use super::float::IntoFloat; }`).
pub(super) fn in_pub_use(node: Node, bytes: &[u8]) -> bool {
    let is_pub = |n: Node| is_plain_pub(n, bytes);
    let mut at = Some(node);
    while let Some(n) = at {
        if n.kind() == "use_declaration" {
            return is_pub(n)
                && std::iter::successors(n.parent(), |p| p.parent())
                    .filter(|p| p.kind() == "mod_item")
                    .all(|module| is_pub(module) && !doc_hidden(module, bytes));
        }
        at = n.parent();
    }
    false
}

/// Whether Rust item `item` is declared plainly `pub` (not `pub(crate)`, not private).
pub(super) fn is_plain_pub(item: Node, bytes: &[u8]) -> bool {
    (0..item.child_count())
        .filter_map(|i| item.child(i))
        .any(|c| c.kind() == "visibility_modifier" && c.utf8_text(bytes).is_ok_and(|v| v.trim() == "pub"))
}

/// Whether an attribute right above `item` is `#[doc(hidden)]`.
fn doc_hidden(item: Node, bytes: &[u8]) -> bool {
    let mut at = item.prev_named_sibling();
    while let Some(attribute) = at.filter(|a| a.kind() == "attribute_item") {
        let text = attribute.utf8_text(bytes).unwrap_or_default();
        if text.split_whitespace().collect::<String>() == "#[doc(hidden)]" {
            return true;
        }
        at = attribute.prev_named_sibling();
    }
    false
}

/// Rust: the paths whose every public item a file passes on, as written, from
/// its top-level `pub use` globs (`crate::regex::string` of `pub use
/// crate::{builders::string::*, regex::string::*};`).
pub(super) fn rust_glob_reexports(root: Node, bytes: &[u8]) -> Vec<String> {
    let mut paths = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor).filter(|n| n.kind() == "use_declaration") {
        let public = is_plain_pub(item, bytes);
        if let Some(argument) = item.child_by_field_name("argument").filter(|_| public) {
            globs(argument, "", bytes, &mut paths);
        }
    }
    paths
}

/// The glob paths of use tree `node`, each after `prefix`.
fn globs(node: Node, prefix: &str, bytes: &[u8], paths: &mut Vec<String>) {
    let text = |n: Node| n.utf8_text(bytes).ok().map(|t| t.split_whitespace().collect::<String>());
    match node.kind() {
        "use_wildcard" => {
            let path = node.named_child(0).and_then(text).unwrap_or_default();
            let path = format!("{prefix}{path}");
            paths.push(path.trim_end_matches("::").to_string());
        }
        "scoped_use_list" => {
            let path = node.child_by_field_name("path").and_then(text).unwrap_or_default();
            if let Some(list) = node.child_by_field_name("list") {
                globs(list, &format!("{prefix}{path}::"), bytes, paths);
            }
        }
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                globs(child, prefix, bytes, paths);
            }
        }
        _ => {}
    }
}
