//! What a definition's decorators and attributes say of it: Python's
//! `@property` or `@overload` change what it is and how it is called; Rust's
//! `#[test]` makes a function a test wherever it sits.

use tree_sitter::Node;

/// The decorators a signature keeps: those that change what a definition is
/// or how it is called (matched by their last name: `@functools.cached_property`).
pub(crate) const KEPT_DECORATORS: &[&str] = &[
    "property",
    "cached_property",
    "staticmethod",
    "classmethod",
    "abstractmethod",
    "overload",
    "setter",
    "getter",
    "deleter",
    "dataclass",
    "contextmanager",
    "asynccontextmanager",
];

/// The name a decorator calls, last part: `@app.route("/")` → `route`,
/// `@t.overload  # type: ignore` → `overload`.
pub(crate) fn decorator_name(text: &str) -> &str {
    let text = text.trim_start_matches('@').trim();
    let callee = text.split(|c: char| c == '(' || c == '#' || c.is_whitespace()).next().unwrap_or(text);
    callee.rsplit('.').next().unwrap_or(callee)
}

/// The Python decorators of `node` (a definition inside a `decorated_definition`).
pub(crate) fn decorators<'t>(node: Node<'t>, bytes: &'t [u8]) -> Vec<&'t str> {
    let Some(parent) = node.parent().filter(|p| p.kind() == "decorated_definition") else {
        return Vec::new();
    };
    let mut cursor = parent.walk();
    parent
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .filter_map(|c| c.utf8_text(bytes).ok())
        .map(str::trim)
        .collect()
}

/// The test attribute of a Rust function `node` (`#[test]`, `#[tokio::test]`,
/// `#[rstest]`, `#[test_case(…)]`), among the attributes right before it.
pub(crate) fn test_attribute<'t>(node: Node<'t>, bytes: &'t [u8]) -> Option<&'t str> {
    if node.kind() != "function_item" {
        return None;
    }
    let mut at = node.prev_named_sibling();
    while let Some(item) = at.filter(|n| matches!(n.kind(), "attribute_item" | "line_comment")) {
        let text = item.utf8_text(bytes).ok()?.trim();
        let inner = text.trim_start_matches("#[").trim_end_matches(']');
        let path = inner.split(['(', ' ']).next().unwrap_or(inner);
        let last = path.rsplit("::").next().unwrap_or(path);
        if item.kind() == "attribute_item" && matches!(last, "test" | "rstest" | "test_case" | "quickcheck") {
            return Some(text);
        }
        at = item.prev_named_sibling();
    }
    None
}

/// The attributes of a Rust item `node` that say who sees it, as a signature
/// shows them before the item, on its line: `#[macro_export]` (a
/// `macro_rules!` at the crate's root, its public surface wherever it is
/// written) and `#[doc(hidden)]` (`pub`, yet none of the API: a macro's
/// `__private` support). Never inside a function's body, whose items no one sees.
pub(crate) fn visibility_attributes(node: Node, bytes: &[u8]) -> &'static str {
    let (mut exported, mut hidden) = (false, false);
    let mut at = node.prev_named_sibling();
    while let Some(item) =
        at.filter(|n| matches!(n.kind(), "attribute_item" | "line_comment" | "block_comment"))
    {
        if item.kind() == "attribute_item" {
            let text: String = item.utf8_text(bytes).unwrap_or("").split_whitespace().collect();
            exported |= text == "#[macro_export]" || text.starts_with("#[macro_export(");
            hidden |= text == "#[doc(hidden)]";
        }
        at = item.prev_named_sibling();
    }
    match (exported, hidden) {
        (true, true) => "#[macro_export] #[doc(hidden)] ",
        (true, false) => "#[macro_export] ",
        (false, true) => "#[doc(hidden)] ",
        (false, false) => "",
    }
}

/// Whether `node` declares one overload of a set whose next member follows it:
/// a TypeScript signature without a body, a Python `@overload` definition.
pub(crate) fn is_overload(node: Node, bytes: &[u8]) -> bool {
    matches!(node.kind(), "function_signature" | "method_signature")
        || decorators(node, bytes).iter().any(|d| decorator_name(d) == "overload")
}
