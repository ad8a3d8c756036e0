//! Rust items written inside a macro's braces: tracing-subscriber's
//! `feature! { pub fn registry() -> Registry { … } }`, tokio's `cfg_rt! {
//! pub mod runtime; }`. Tree-sitter sees a token tree there, so the crate's
//! entry points defined that way were in no map, outline or context. They
//! are read as if the macro's name and braces were not there.
//!
//! `bitflags! { pub struct KeyModifiers: u8 { const SHIFT = 1; … } }` holds
//! a type in a syntax of its own: it is read as the enum it reads like
//! (`pub enum KeyModifiers { SHIFT = 1, … }`), then named a struct again
//! ([`bitflags_structs`]), so crossterm's `KeyModifiers` is a definition.

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
    let mut edits = Edits::default();
    collect(root, source, &mut edits);
    if edits.blanks.is_empty() {
        return None;
    }
    let mut text = source.as_bytes().to_vec();
    for (from, to) in edits.blanks {
        // Only ASCII is blanked (a name, `!`, a brace, a `;`): the text stays UTF-8.
        for byte in &mut text[from..to] {
            if byte.is_ascii() && *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    for (at, with) in edits.overwrites {
        text.get_mut(at..at + with.len())?.copy_from_slice(with);
    }
    String::from_utf8(text).ok()
}

/// What makes a source's item-holding macros read as items, in place.
#[derive(Default)]
struct Edits {
    /// Byte ranges to blank.
    blanks: Vec<(usize, usize)>,
    /// ASCII to write over ASCII of the same length, after the blanks.
    overwrites: Vec<(usize, &'static [u8])>,
}

/// The edits for the item-holding macros among `node`'s items, and those of
/// the modules it holds.
fn collect(node: Node, source: &str, edits: &mut Edits) {
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
                let after = child.end_byte();
                let end = match source.as_bytes().get(after) {
                    Some(b';') => after + 1,
                    _ => after,
                };
                if name == "bitflags" {
                    let inside = tree.start_byte() + 1..tree.end_byte() - 1;
                    if !bitflags(source, inside, edits) {
                        // A form not read (`impl Flags: u32 { … }`): none of it, rather than errors.
                        edits.blanks.push((child.start_byte(), end));
                        continue;
                    }
                }
                edits.blanks.push((child.start_byte(), tree.start_byte() + 1));
                edits.blanks.push((tree.end_byte() - 1, end));
            }
            "mod_item" => {
                if let Some(body) = child.child_by_field_name("body") {
                    collect(body, source, edits);
                }
            }
            _ => {}
        }
    }
}

/// The edits that make the types of a `bitflags!` invocation, whose inside is
/// `source[inside]`, enums (`pub struct Flags: u8 { const A = 1; }` read as `pub
/// enum Flags { A = 1, }`); false when it holds a form this does not read.
fn bitflags(source: &str, inside: std::ops::Range<usize>, edits: &mut Edits) -> bool {
    let bytes = source.as_bytes();
    let (mut at, end) = (inside.start, inside.end);
    let mut found = false;
    while at < end {
        let rest = &source[at..end];
        // Not a doc comment's word ("/// This struct: …").
        let in_comment =
            |word: usize| rest[..word].rsplit('\n').next().is_some_and(|line| line.contains("//"));
        let alone = |word: usize| {
            let is_name = |c: char| c.is_alphanumeric() || c == '_';
            !rest[..word].ends_with(is_name) && !rest[word + "struct".len()..].starts_with(is_name)
        };
        let Some(struct_at) =
            rest.match_indices("struct").map(|(word, _)| word).find(|&word| alone(word) && !in_comment(word))
        else {
            break;
        };
        let header = at + struct_at;
        let Some(open) = source[header..end].find('{').map(|o| header + o) else { return false };
        let Some(colon) = source[header..open].find(':').map(|c| header + c) else { return false };
        edits.overwrites.push((header, b"enum  "));
        edits.blanks.push((colon, open));
        // Each `const NAME = value;` up to the type's closing brace is a variant.
        let mut depth = 0usize;
        let mut i = open + 1;
        while i < end {
            match bytes[i] {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' if depth == 0 => break,
                b'}' | b')' | b']' => depth = depth.saturating_sub(1),
                b';' if depth == 0 => edits.overwrites.push((i, b",")),
                b'c' if depth == 0 && source[i..end].starts_with("const ") => {
                    let named = source[i + 6..end].trim_start();
                    // `const _ = !0;` (every bit) names no variant an enum could have.
                    if named.starts_with('_') && !named[1..].starts_with(|c: char| c.is_alphanumeric()) {
                        return false;
                    }
                    edits.blanks.push((i, i + 5));
                }
                _ => {}
            }
            i += 1;
        }
        found = true;
        at = i + 1;
    }
    found && !source[inside].contains("impl ")
}

/// Where `word` first stands alone in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .map(|(at, _)| at)
        .find(|&at| !text[..at].ends_with(is_name) && !text[at + word.len()..].starts_with(is_name))
}

/// Makes the enums [`unwrapped`] read a `bitflags!` type as structs again, as
/// the original `source` writes them: `pub struct KeyModifiers: u8 { SHIFT =
/// 0b0000_0001, … }`.
pub(crate) fn bitflags_structs(source: &str, defs: &mut [crate::tags::Def]) {
    if !source.contains("bitflags!") {
        return;
    }
    let lines: Vec<&str> = source.lines().collect();
    for def in defs.iter_mut().filter(|d| d.kind == crate::tags::Kind::Enum) {
        let span = lines.get(def.line.saturating_sub(1) as usize..(def.end_line as usize).min(lines.len()));
        let header = span.into_iter().flatten().find_map(|line| {
            let at = find_word(line, "struct")?;
            let rest = line[at + "struct".len()..].trim_start().strip_prefix(def.name.as_str())?;
            let repr = rest.trim_start().strip_prefix(':')?;
            Some(repr.split('{').next().unwrap_or(repr).trim().to_string())
        });
        let Some(repr) = header else { continue };
        // `enum` and the name, as blanked in place (`pub enum   KeyModifiers`).
        let Some(at) = find_word(&def.signature, "enum") else { continue };
        let after = &def.signature[at + "enum".len()..];
        let name_at = at + "enum".len() + (after.len() - after.trim_start().len());
        if def.signature[name_at..].starts_with(def.name.as_str()) {
            let struct_header = format!("struct {}: {repr}", def.name);
            def.signature.replace_range(at..name_at + def.name.len(), &struct_header);
            def.kind = crate::tags::Kind::Struct;
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

    #[test]
    fn a_bitflags_type_is_a_struct_with_its_flags() {
        let source = "use bitflags::bitflags;\n\nbitflags! {\n    /// This struct: key modifiers.\n    \
                      #[derive(Debug, Clone, Copy)]\n    pub struct KeyModifiers: u8 {\n        \
                      const SHIFT = 0b0000_0001;\n        #[cfg(unix)]\n        const ALT = 1 << 2;\n        \
                      const BOTH = Self::SHIFT.bits()\n            | Self::ALT.bits();\n    }\n\n    \
                      struct Private: u32 {\n        const A = 1;\n    }\n}\n\n\
                      pub fn read() -> KeyModifiers {\n    KeyModifiers::empty()\n}\n";
        let tags = extract(Lang::Rust, source).unwrap();
        assert!(!tags.syntax_errors, "{:?}", tags.defs);
        let def = |name: &str| tags.defs.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}"));
        let flags = def("KeyModifiers");
        assert_eq!(flags.kind, crate::tags::Kind::Struct, "{flags:?}");
        assert_eq!(flags.line, 6);
        assert!(
            flags.signature.starts_with("pub struct KeyModifiers: u8 { SHIFT = 0b0000_0001"),
            "{}",
            flags.signature
        );
        assert!(flags.signature.contains("BOTH"), "{}", flags.signature);
        assert!(def("Private").signature.starts_with("struct Private: u32"));
        assert_eq!(def("read").line, 19);
        // A form it does not read hides nothing else of the file.
        let external = "bitflags! {\n    impl Flags: u32 {\n        const A = 1;\n    }\n}\n\
                        pub fn read() {}\n";
        let tags = extract(Lang::Rust, external).unwrap();
        assert!(!tags.syntax_errors && tags.defs.iter().any(|d| d.name == "read"), "{:?}", tags.defs);
    }
}
