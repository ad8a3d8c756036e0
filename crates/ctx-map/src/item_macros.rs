//! Rust items written inside a macro's braces: tracing-subscriber's
//! `feature! { pub fn registry() -> Registry { … } }`, tokio's `cfg_rt! {
//! pub mod runtime; }`. Tree-sitter sees a token tree there, so the crate's
//! entry points defined that way were in no map, outline or context. They
//! are read as if the macro's name and braces were not there.

use tree_sitter::Node;

/// Macros whose braces hold their own syntax, not items, however item-like
/// it starts (`lazy_static! { static ref X: T = …; }`, a `select!`'s arms).
const NOT_ITEMS: &[&str] =
    &["lazy_static", "quote", "quote_spanned", "html", "view", "rsx", "json", "select", "join", "try_join"];

/// How an item's line starts, as the braces of an item-holding macro show it.
const ITEM_STARTS: &[&str] = &[
    "pub ",
    "pub(",
    "fn ",
    "async fn ",
    "const fn ",
    "unsafe ",
    "impl ",
    "impl<",
    "struct ",
    "enum ",
    "trait ",
    "mod ",
    "use ",
    "type ",
    "const ",
    "static ",
    "extern ",
    "#[",
    "#![",
];

/// `source` with each top-level or module-level macro invocation that holds
/// items in braces unwrapped: its name, `!` and braces (and a `;` after them)
/// blanked out in place, so lines and columns stay where they were. `None`
/// when there is none.
pub(crate) fn unwrapped(root: Node, source: &str) -> Option<String> {
    // Most files have no `! {` at all: no walk.
    if !source.contains("! {") && !source.contains("!{") {
        return None;
    }
    let mut blanks: Vec<(usize, usize)> = Vec::new();
    collect(root, source, &mut blanks);
    if blanks.is_empty() {
        return None;
    }
    let mut text = source.as_bytes().to_vec();
    for (from, to) in blanks {
        // Only ASCII is blanked (a name, `!`, a brace, a `;`): the text stays UTF-8.
        for byte in &mut text[from..to] {
            if byte.is_ascii() && *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    String::from_utf8(text).ok()
}

/// The ranges to blank for the item-holding macros among `node`'s items,
/// and those of the modules it holds.
fn collect(node: Node, source: &str, blanks: &mut Vec<(usize, usize)>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "macro_invocation" => {
                let Some(tree) = child.named_children(&mut child.walk()).find(|c| c.kind() == "token_tree")
                else {
                    continue;
                };
                let name =
                    child.child_by_field_name("macro").and_then(|m| m.utf8_text(source.as_bytes()).ok());
                let name = name.map(|n| n.rsplit("::").next().unwrap_or(n)).unwrap_or("");
                let inside =
                    source.get(tree.start_byte() + 1..tree.end_byte().saturating_sub(1)).unwrap_or("");
                let braced = source.as_bytes().get(tree.start_byte()) == Some(&b'{');
                let holds_items =
                    inside.lines().any(|l| ITEM_STARTS.iter().any(|s| l.trim_start().starts_with(s)));
                if !braced || !holds_items || NOT_ITEMS.contains(&name) {
                    continue;
                }
                blanks.push((child.start_byte(), tree.start_byte() + 1));
                let after = child.end_byte();
                let end = match source.as_bytes().get(after) {
                    Some(b';') => after + 1,
                    _ => after,
                };
                blanks.push((tree.end_byte() - 1, end));
            }
            "mod_item" => {
                if let Some(body) = child.child_by_field_name("body") {
                    collect(body, source, blanks);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;
    use crate::tags::extract;

    #[test]
    fn items_inside_a_macro_s_braces_are_the_file_s_own() {
        let source = "pub use layer::Layer;\n\nfeature! {\n    #![all(feature = \"registry\")]\n    \
                      pub use registry::Registry;\n\n    /// Returns a default registry.\n    \
                      pub fn registry() -> Registry {\n        Registry::default()\n    }\n}\n\n\
                      mod inner {\n    crate::cfg_rt! {\n        pub struct Runtime;\n    }\n}\n\n\
                      lazy_static! {\n    static ref CACHE: u8 = 1;\n}\n";
        let tags = extract(Lang::Rust, source).unwrap();
        let def = |name: &str| tags.defs.iter().find(|d| d.name == name);
        // Where the source has it, as the source writes it.
        let registry = def("registry").expect("registry");
        assert_eq!((registry.line, registry.signature.as_str()), (8, "pub fn registry() -> Registry"));
        let runtime = def("Runtime").expect("Runtime");
        assert_eq!(runtime.line, 15);
        assert_eq!(runtime.parent.map(|p| tags.defs[p as usize].name.as_str()), Some("inner"));
        // A macro's own syntax stays its own, and nothing reads worse for it.
        assert!(def("CACHE").is_none() && !tags.syntax_errors, "{:?}", tags.defs);
        assert!(tags.refs.iter().any(|r| r.name == "default"), "{:?}", tags.refs);
    }
}
