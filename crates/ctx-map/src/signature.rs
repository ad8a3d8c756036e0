//! Signatures: how a definition is called or declared, without its body,
//! as the map and the outlines show it (whole parameter lists joined onto as
//! few lines as fit, comments out, kept decorators, a data type's members on
//! one line), and the cut that keeps a long one within its width.

use tree_sitter::Node;

use crate::attributes::{KEPT_DECORATORS, decorator_name, decorators, test_attribute, visibility_attributes};
use crate::tags::Kind;

/// Longest first line kept of a definition without a body (a constant), in characters.
const MAX_SIGNATURE_LINE: usize = 160;

/// The body of a definition: its own, or that of the function it assigns
/// (`const f = (x) => {…}`, `exports.f = function (x) {…}`, `{ f: (x) => … }`).
fn body_of(node: Node) -> Option<Node> {
    node.child_by_field_name("body").or_else(|| {
        ["value", "right"]
            .iter()
            .filter_map(|field| node.child_by_field_name(field))
            .find(|v| matches!(v.kind(), "arrow_function" | "function_expression" | "function"))
            .and_then(|v| v.child_by_field_name("body"))
    })
}

/// Longest signature line a long parameter list is wrapped to, in characters.
pub(crate) const WRAP: usize = 100;
/// Longest signature kept, in characters: five lines of [`WRAP`]. A longer
/// one is a command's forty options (uvicorn's `main`, `run`), which took a
/// third of a map's room; its first lines and how many more it takes say
/// what it is.
const MAX_SIGNATURE: usize = 500;
/// Longest type parameter list shown whole, in characters: a longer one is
/// `<…>` (fastify's `FastifyRequest<RouteGeneric extends … = …, …>` took seven
/// lines of the map before its members; `fn parse<T: DeserializeOwned>` stays).
const MAX_TYPE_PARAMETERS: usize = 60;

/// The items of the list a signature is cut inside `rest` goes on with, each
/// on one line: split at the commas at the list's own depth, up to the
/// bracket that closes the list.
fn items_left(rest: &str) -> Vec<String> {
    let (mut depth, mut items, mut item, mut previous) = (0i32, Vec::new(), String::new(), ' ');
    let close = |item: &mut String, items: &mut Vec<String>| {
        let text = item.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() {
            items.push(text);
        }
        item.clear();
    };
    for c in rest.chars() {
        // `->` and `=>` are arrows, not brackets.
        let arrow = c == '>' && matches!(previous, '-' | '=');
        previous = c;
        match c {
            _ if arrow => {}
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if depth == 0 => break,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                close(&mut item, &mut items);
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    close(&mut item, &mut items);
    items
}

/// How `node` (a definition of kind `kind`) is called or declared, without
/// its body: from its first token (with `export`, and the declaration around
/// a `const f = …`) to its body, the whole parameter list and return type,
/// comments out, joined onto as few lines as fit [`WRAP`] (never broken inside
/// a line of the source); the decorators of [`KEPT_DECORATORS`] on lines
/// before it (but `@overload` when `overloads` says how many more there are),
/// and a Rust test attribute ([`test_attribute`]).
/// A definition without a body (a constant, a type alias) shows its first
/// line, cut to [`MAX_SIGNATURE_LINE`] characters.
///
/// Also the items of a parameter list cut after [`MAX_SIGNATURE`] characters
/// leaves out (`… (+N)`), one line each, for a task that names one of them.
pub(crate) fn signature(source: &str, node: Node, kind: Kind, overloads: usize) -> (String, Vec<String>) {
    let (text, left_out) = unmarked_signature(source, node, kind, overloads);
    // Rust's `#[macro_export]` and `#[doc(hidden)]` say who sees it, on its line.
    (format!("{}{text}", visibility_attributes(node, source.as_bytes())), left_out)
}

/// [`signature`] without the attributes that say who sees it.
fn unmarked_signature(source: &str, node: Node, kind: Kind, overloads: usize) -> (String, Vec<String>) {
    let bytes = source.as_bytes();
    let body = body_of(node);
    // `const x = …` is a declarator inside a declaration (inside an export): show all of it.
    let mut outer = node;
    while let Some(parent) = outer.parent() {
        let wraps = match parent.kind() {
            "lexical_declaration" | "variable_declaration" => outer.kind() == "variable_declarator",
            "export_statement" => true,
            _ => false,
        };
        if !wraps {
            break;
        }
        outer = parent;
    }
    let start = outer.start_byte();
    let callable = matches!(kind, Kind::Function | Kind::Method);
    let end = match body {
        Some(body) => body.start_byte(),
        // A signature without a body (an overload, a trait's method): all of it.
        None if callable => node.end_byte(),
        // An object type named (`type CORSOptions = { origin: …; allowMethods?: string[] }`):
        // its members, as an interface's, where a task about its options needs them.
        // A union of object types (`type BasicAuthOptions = | { username: …; password: … } |
        // { verifyUser: … }`): each on a line of its own, with its members.
        None if kind == Kind::Type
            && node.kind() == "type_alias_declaration"
            && node.child_by_field_name("value").is_some_and(|v| {
                v.kind() == "object_type"
                    || (v.kind() == "union_type"
                        && source[v.byte_range()].contains('\n')
                        && union_arms(v).iter().any(|a| a.kind() == "object_type"))
            }) =>
        {
            let value = node.child_by_field_name("value").unwrap_or(node);
            let head = shown_text(source, outer, start, value.start_byte());
            let head = join_lines(head.trim_end().trim_end_matches('=').trim_end());
            let head = format!("{head} =");
            let object = |arm: Node, width: usize| match members(source, arm, width) {
                members if members.is_empty() => " {…}".to_string(),
                members => members,
            };
            if value.kind() == "object_type" {
                let width = head.lines().last().map_or(0, |l| l.chars().count());
                return (head + &object(value, width), Vec::new());
            }
            let arms = union_arms(value);
            let mut lines = vec![head];
            for &arm in arms.iter().take(MAX_ARMS) {
                lines.push(match arm.kind() {
                    "object_type" => format!("  |{}", object(arm, 3)),
                    _ => cut(
                        &format!("  | {}", join_lines(&source[arm.byte_range()]).replace('\n', " ")),
                        WRAP,
                    ),
                });
            }
            if arms.len() > MAX_ARMS {
                lines.push(format!("  | … (+{})", arms.len() - MAX_ARMS));
            }
            return (lines.join("\n"), Vec::new());
        }
        None => {
            let line_end = source[start..].find('\n').map_or(source.len(), |i| start + i);
            let line_end = line_end.min(outer.end_byte());
            let text = shown_text(source, outer, start, line_end);
            let line = text.trim_end();
            // A constant or type whose value goes on: all of it when it is short
            // (`type Formatter<N = …> = Layered<…>`), else its first line, closed (`X = dict(…)`).
            if matches!(kind, Kind::Constant | Kind::Type) && outer.end_byte() > line_end {
                let most_lines = if kind == Kind::Type { 2 } else { 1 };
                if let Some(whole) = joined_whole(source, outer, start, most_lines) {
                    return (whole, Vec::new());
                }
                // Type parameters over lines (`type RequestMiddleware<⏎  Request extends … = …,⏎> =
                // (event) => void`): without them, what the type is may still fit.
                if kind == Kind::Type
                    && joinable(outer)
                    && let Some(text) = without_type_parameters(source, node, outer, start, outer.end_byte())
                {
                    let joined = join_lines(text.trim_end().trim_end_matches(';').trim_end());
                    if joined.lines().count() <= most_lines
                        && joined.lines().all(|l| l.chars().count() <= WRAP)
                    {
                        return (joined, Vec::new());
                    }
                }
                // A long type over lines: what it is, on one line as far as it goes (pinia's
                // `type Store<…> = _StoreWithState<Id, S, G, A> & UnwrapRef<S> & …`, which read
                // `Store<…>` with nothing after it).
                if kind == Kind::Type && joinable(outer) {
                    let text = without_type_parameters(source, node, outer, start, outer.end_byte())
                        .unwrap_or_else(|| shown_text(source, outer, start, outer.end_byte()));
                    let one =
                        join_lines(text.trim_end().trim_end_matches(';').trim_end()).replace("\n    ", " ");
                    // (An object type's members, cut inside, read worse than `Partial<{…}>`.)
                    if !one.replace("{}", "").contains('{') {
                        return (cut(&one, MAX_SIGNATURE_LINE), Vec::new());
                    }
                }
                return (cut(&continued(line, outer, start, line_end), MAX_SIGNATURE_LINE), Vec::new());
            }
            return (cut(line.trim_end_matches('{').trim_end(), MAX_SIGNATURE_LINE), Vec::new());
        }
    };
    let text = without_type_parameters(source, node, outer, start, end)
        .unwrap_or_else(|| shown_text(source, outer, start, end));
    let header = text.trim_end().trim_end_matches(['{', ';']).trim_end();
    let mut header = join_lines(header);
    let mut left_out = Vec::new();
    if let Some((end, _)) = header.char_indices().nth(MAX_SIGNATURE) {
        // Whole lines (each at most `WRAP` wide), then a mark that the list goes on.
        let at = header[..end].rfind('\n').unwrap_or(end);
        left_out = items_left(&header[at..]);
        header = match left_out.len() {
            0 => format!("{} …", header[..at].trim_end()),
            left => format!("{} … (+{left})", header[..at].trim_end()),
        };
    }
    if let Some(body) = body.filter(|_| !callable) {
        header.push_str(&members(source, body, header.lines().last().map_or(0, |l| l.chars().count())));
    }
    if overloads > 0 {
        header.push_str(&format!(" (+{})", ctxkeep_core::wording::count(overloads, "overload")));
    }
    let mut out: Vec<String> =
        test_attribute(node, bytes).into_iter().map(|attribute| cut(attribute, MAX_SIGNATURE_LINE)).collect();
    out.extend(
        decorators(node, bytes)
            .into_iter()
            .filter(|d| KEPT_DECORATORS.contains(&decorator_name(d)))
            .filter(|d| overloads == 0 || decorator_name(d) != "overload")
            .map(|d| cut(d, MAX_SIGNATURE_LINE)),
    );
    out.push(header);
    (out.join("\n"), left_out)
}

/// Most arms of a union of object types shown, each on a line.
const MAX_ARMS: usize = 4;

/// The arms of a TypeScript union type, in order (tree-sitter nests `A | B | C`
/// as `(A | B) | C`, and a leading `|` as a union of one).
fn union_arms(union: Node) -> Vec<Node> {
    let mut cursor = union.walk();
    let children: Vec<Node> = union.named_children(&mut cursor).collect();
    children
        .into_iter()
        .flat_map(|c| if c.kind() == "union_type" { union_arms(c) } else { vec![c] })
        .collect()
}

/// Longest line a data type's members are listed on, with its header, in characters.
const MAX_MEMBERS_LINE: usize = 160;
/// Longest member of an interface or object type shown whole, in characters.
const MAX_MEMBER: usize = 60;

/// What a data type's `body` declares, to follow its header on the
/// header's last line (`width` characters so far): a Rust struct's fields
/// (`{ pub x: f64, pub y: f64 }`, `(pub f64)`) or an enum's variants, a
/// TypeScript interface's members, a Python class's annotated attributes
/// (a dataclass, a TypedDict: `class User: name: str; email: str | None = None`).
/// As many as fit [`MAX_MEMBERS_LINE`], then how many more; empty when the
/// body declares none (a class of methods).
fn members(source: &str, body: Node, width: usize) -> String {
    let text = |node: Node| join_lines(source.get(node.byte_range()).unwrap_or("")).replace("\n    ", " ");
    let mut cursor = body.walk();
    let children: Vec<Node> = body.named_children(&mut cursor).collect();
    let (open, separator, close, items): (&str, &str, &str, Vec<String>) = match body.kind() {
        "field_declaration_list" | "enum_variant_list" => {
            // A public struct's private fields are its own business (`pub struct ProgressBar
            // { state: …, pos: … }` invites no one to use them): `…` says they are there.
            // `pub`, not `pub(crate)`: minijinja's `pub struct Environment { pub(crate) … }`.
            let public = |n: Node| {
                n.named_child(0).is_some_and(|v| {
                    v.kind() == "visibility_modifier"
                        && v.utf8_text(source.as_bytes()).is_ok_and(|t| t.trim() == "pub")
                })
            };
            let hides = body.kind() == "field_declaration_list" && body.parent().is_some_and(public);
            let all: Vec<Node> = children
                .iter()
                .copied()
                .filter(|c| matches!(c.kind(), "field_declaration" | "enum_variant"))
                .collect();
            let mut items: Vec<String> =
                all.iter().filter(|&&c| !hides || public(c)).map(|&c| text(c)).collect();
            if items.len() < all.len() {
                items.push("…".to_string());
            }
            (" { ", ", ", " }", items)
        }
        "ordered_field_declaration_list" => {
            let shown = shown_text(source, body, body.start_byte(), body.end_byte());
            // A trailing comma is the source's line break, not a tuple's.
            let fields = join_lines(&shown).replace("\n    ", " ").replace(",)", ")");
            return cut(&fields, MAX_MEMBERS_LINE.saturating_sub(width));
        }
        "enum_body" => {
            let items = children
                .iter()
                .filter(|c| matches!(c.kind(), "property_identifier" | "enum_assignment" | "string"))
                .map(|&c| text(c))
                .collect();
            (" { ", ", ", " }", items)
        }
        "interface_body" | "object_type" => {
            let items = children
                .iter()
                .filter(|c| {
                    // A call signature (`(event: H3Event): Response`) is what makes a function type.
                    matches!(
                        c.kind(),
                        "property_signature" | "method_signature" | "index_signature" | "call_signature"
                    )
                })
                .map(|&c| {
                    let item = text(c).trim_end_matches([';', ',']).to_string();
                    // A property whose type runs long (`origin?: | string | string[] | ((…) =>
                    // …)`) says its name: the others still fit beside it.
                    match c
                        .child_by_field_name("name")
                        .filter(|_| c.kind() == "property_signature" && item.chars().count() > MAX_MEMBER)
                    {
                        Some(name) => {
                            let optional =
                                source.get(name.end_byte()..).is_some_and(|rest| rest.starts_with('?'));
                            format!("{}{}: …", text(name), if optional { "?" } else { "" })
                        }
                        None => item,
                    }
                })
                .collect();
            (" { ", "; ", " }", items)
        }
        // A Python data class: its annotated attributes (`name: str`, `x: int = 0`).
        // A class of behaviour is known by its methods: its attributes are its own business.
        "block" if body.parent().is_some_and(|class| is_data_class(class, source.as_bytes())) => {
            let items = children
                .iter()
                .filter(|c| c.kind() == "expression_statement")
                .filter_map(|c| c.named_child(0))
                .filter(|a| a.kind() == "assignment" && a.child_by_field_name("type").is_some())
                // `_form: FormData | None` is the class's own business.
                .filter(|a| a.child_by_field_name("left").is_none_or(|name| !text(name).starts_with('_')))
                .map(text)
                .collect();
            // The header ends with its `:`.
            (" ", "; ", "", items)
        }
        _ => return String::new(),
    };
    if items.is_empty() {
        return String::new();
    }
    let room = MAX_MEMBERS_LINE.saturating_sub(width + open.len() + close.len());
    let mut shown = String::new();
    let mut count = 0;
    for item in &items {
        let extra = if count == 0 { 0 } else { separator.len() } + item.chars().count();
        // Room kept for the `, … (+N)` that says what was left out.
        if shown.chars().count() + extra + if count + 1 < items.len() { 12 } else { 0 } > room {
            break;
        }
        if count > 0 {
            shown.push_str(separator);
        }
        shown.push_str(item);
        count += 1;
    }
    if count == 0 {
        // Not even one fits: `… (+4)` alone would only say something was left out.
        return String::new();
    }
    if count < items.len() {
        shown.push_str(separator);
        shown.push_str(&format!("… (+{})", items.len() - count));
    }
    format!("{open}{shown}{close}")
}

/// Whether a Python `class` is one of data: decorated as one (`@dataclass`,
/// attrs' `@define`), derived from a kind of record (`NamedTuple`,
/// `TypedDict`, pydantic's `BaseModel`), or with no method at all.
fn is_data_class(class: Node, bytes: &[u8]) -> bool {
    const DECORATORS: &[&str] = &["dataclass", "attr.s", "attrs", "define", "frozen", "mutable"];
    const BASES: &[&str] = &["NamedTuple", "TypedDict", "BaseModel", "Struct", "BaseSettings"];
    if class.kind() != "class_definition" {
        return false;
    }
    let decorated = crate::attributes::decorators(class, bytes).iter().any(|d| {
        DECORATORS
            .iter()
            .any(|name| d.trim_start_matches('@').split('(').next().is_some_and(|n| n.ends_with(name)))
    });
    let bases = class.child_by_field_name("superclasses").and_then(|b| b.utf8_text(bytes).ok()).unwrap_or("");
    let record = BASES.iter().any(|base| bases.contains(base));
    let Some(body) = class.child_by_field_name("body") else { return decorated || record };
    let mut cursor = body.walk();
    let methods = body.named_children(&mut cursor).any(|c| {
        c.kind() == "function_definition"
            || c.kind() == "decorated_definition"
                && c.child_by_field_name("definition").is_some_and(|d| d.kind() == "function_definition")
    });
    decorated || record || !methods
}

/// The text of `node` from `start` to `end` as a signature shows it: without
/// its comments, and a long string literal's text elided (`r#"…"#`).
fn shown_text(source: &str, node: Node, start: usize, end: usize) -> String {
    let mut cuts = Vec::new();
    collect_cuts(node, start, end, &mut cuts);
    let mut text = String::with_capacity(end - start);
    let mut at = start;
    for (from, to, cut) in cuts {
        text.push_str(source.get(at..from).unwrap_or(""));
        if cut == Cut::LongString {
            text.push_str(&elided(source.get(from..to).unwrap_or("")));
        }
        // A comment between a name and its comma or bracket (`G /* extends X */,`) leaves no
        // space before them.
        let next = source.get(to..).and_then(|rest| rest.trim_start_matches([' ', '\t']).chars().next());
        if cut == Cut::Comment && next.is_some_and(|c| matches!(c, ',' | ')' | '>' | ']' | ';')) {
            text.truncate(text.trim_end_matches([' ', '\t']).len());
        }
        at = to;
    }
    text.push_str(source.get(at..end).unwrap_or(""));
    text
}

/// `outer`'s text from `start` to `end` with `node`'s type parameters `<…>`
/// (`[…]` for Python's), when they are longer than [`MAX_TYPE_PARAMETERS`].
fn without_type_parameters(
    source: &str,
    node: Node,
    outer: Node,
    start: usize,
    end: usize,
) -> Option<String> {
    let list = node.child_by_field_name("type_parameters")?;
    if list.start_byte() < start || list.end_byte() > end || list.byte_range().len() <= MAX_TYPE_PARAMETERS {
        return None;
    }
    let elided = if source.as_bytes().get(list.start_byte()) == Some(&b'[') { "[…]" } else { "<…>" };
    let before = shown_text(source, outer, start, list.start_byte());
    Some(format!("{before}{elided}{}", shown_text(source, outer, list.end_byte(), end)))
}

/// The statement `node` from `start`, comments out, joined onto at most
/// `most_lines` lines of [`WRAP`] characters; `None` when it takes more, holds
/// code (a function's body would be shown), or has a token over lines (a
/// multi-line string: joining would change it).
fn joined_whole(source: &str, node: Node, start: usize, most_lines: usize) -> Option<String> {
    let end = node.end_byte();
    if end - start > 2 * most_lines * WRAP || !joinable(node) {
        return None;
    }
    let text = shown_text(source, node, start, end);
    let joined = join_lines(text.trim_end().trim_end_matches(';').trim_end());
    (joined.lines().count() <= most_lines && joined.lines().all(|l| l.chars().count() <= WRAP))
        .then_some(joined)
}

/// Whether `node` holds no code and no token (but a comment) over lines.
fn joinable(node: Node) -> bool {
    let kind = node.kind();
    if kind.contains("comment") {
        return true;
    }
    let code = kind.contains("function") && !kind.contains("type");
    if code || kind.contains("lambda") || kind.contains("closure") || kind.contains("block") {
        return false;
    }
    if node.child_count() == 0 {
        return node.start_position().row == node.end_position().row;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).all(joinable)
}

/// The first `line` of a statement that goes on: `…` where the rest was,
/// then the brackets the line left open, closed (`LocalProxy(…)`, `&[…]`).
/// `node` is the statement, whose tokens tell brackets from quoted text.
fn continued(line: &str, node: Node, start: usize, end: usize) -> String {
    let mut closers = Vec::new();
    open_brackets(node, start, end, &mut closers);
    let mut out = line.to_string();
    if closers.is_empty() {
        out.push_str(" …");
    } else {
        out.push('…');
        out.extend(closers.iter().rev());
    }
    out
}

/// The closing brackets the tokens of `node` between `start` and `end` leave owed.
fn open_brackets(node: Node, start: usize, end: usize, closers: &mut Vec<char>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.start_byte() >= end || child.end_byte() <= start {
            continue;
        }
        if child.child_count() > 0 {
            open_brackets(child, start, end, closers);
            continue;
        }
        // `<` opens a list only in a type's arguments or parameters, never in `a < b`.
        let in_type_list = || child.parent().is_some_and(|p| p.kind().starts_with("type_"));
        match child.kind() {
            "(" => closers.push(')'),
            "[" => closers.push(']'),
            "{" => closers.push('}'),
            "<" if in_type_list() => closers.push('>'),
            ")" | "]" | "}" => {
                closers.pop();
            }
            ">" if in_type_list() => {
                closers.pop();
            }
            _ => {}
        }
    }
}

/// The byte ranges of the comments in `node` that lie within `start..end`.
/// What a signature leaves out of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    Comment,
    /// Kept as its quotes around `…` ([`elided`]).
    LongString,
}

fn collect_cuts(node: Node, start: usize, end: usize, out: &mut Vec<(usize, usize, Cut)>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.start_byte() >= end || child.end_byte() <= start {
            continue;
        }
        // Comments, and a Rust field's or parameter's attributes (`#[allow(…)]`), say nothing of the shape.
        if child.kind().contains("comment") || child.kind() == "attribute_item" {
            out.push((child.start_byte().max(start), child.end_byte().min(end), Cut::Comment));
        } else if is_long_string(child) && child.start_byte() >= start && child.end_byte() <= end {
            out.push((child.start_byte(), child.end_byte(), Cut::LongString));
        } else {
            collect_cuts(child, start, end, out);
        }
    }
}

/// Longest string literal a signature shows whole, in bytes: a longer one is
/// data (an SVG path, a stylesheet), not what the definition is.
const LONG_STRING: usize = 80;

fn is_long_string(node: Node) -> bool {
    matches!(node.kind(), "string" | "string_literal" | "raw_string_literal" | "template_string")
        && node.end_byte() - node.start_byte() > LONG_STRING
}

/// A string literal's quotes (with its prefix: `r#"`, `f"""`) around `…`: as
/// many closing quotes as opened it (`"…\""` ends with one, not two).
fn elided(literal: &str) -> String {
    let quote = |c: char| matches!(c, '"' | '\'' | '`');
    let Some(first) = literal.find(quote) else { return literal.to_string() };
    let open_end = literal[first..].find(|c: char| !quote(c)).map_or(literal.len(), |i| first + i);
    let Some(last) = literal.rfind(quote) else { return literal.to_string() };
    // Quotes are ASCII: byte arithmetic stays on character boundaries.
    let close_start = (last + 1).saturating_sub(open_end - first);
    if close_start < open_end {
        return literal.to_string();
    }
    format!("{}…{}", &literal[..open_end], &literal[close_start..])
}

/// The lines of a header joined: no space after an opening bracket or before
/// a closing one (whose trailing comma goes), one space elsewhere; then
/// wrapped at those spaces to [`WRAP`] characters, continuation lines indented.
fn join_lines(header: &str) -> String {
    // Pieces are never broken: a line of the source, or lines glued at brackets.
    let mut pieces: Vec<String> = Vec::new();
    let mut glue = false;
    // The brackets still open: a line break inside an object type ends a member
    // where the source leaves out the `;` (`{ concurrency?: number⏎ interval?: number }`).
    let mut open: Vec<char> = Vec::new();
    for line in header.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if open.last() == Some(&'{')
            && !line.starts_with([')', ']', '>', '}', '|', '&', '.', '=', '?', ':'])
            && let Some(last) = pieces.last_mut()
            && last
                .ends_with(|c: char| c.is_alphanumeric() || matches!(c, ')' | ']' | '>' | '\'' | '"' | '_'))
        {
            last.push(';');
        }
        for c in line.chars() {
            match c {
                '(' | '[' | '{' | '<' => open.push(c),
                ')' | ']' | '}' => {
                    open.pop();
                }
                '>' if open.last() == Some(&'<') => {
                    open.pop();
                }
                _ => {}
            }
        }
        match pieces.last_mut() {
            Some(last) if glue || line.starts_with([')', ']', '>', '}']) => {
                if line.starts_with([')', ']', '>', '}'])
                    && last.ends_with(',')
                    && !one_element_tuple(last, line)
                {
                    last.pop();
                }
                last.push_str(line);
            }
            _ => pieces.push(line.to_string()),
        }
        glue = line.ends_with(['(', '[', '<', '{']);
    }
    let mut out = String::new();
    let mut width = 0;
    for piece in pieces {
        let len = piece.chars().count();
        if width == 0 {
            out.push_str(&piece);
            width = len;
        } else if width + 1 + len <= WRAP {
            out.push(' ');
            out.push_str(&piece);
            width += 1 + len;
        } else {
            out.push_str("\n    ");
            out.push_str(&piece);
            width = 4 + len;
        }
    }
    out.trim_end_matches(',').to_string()
}

/// Keywords a parenthesized value may follow (`return (x,)`), where a name would call.
const VALUE_KEYWORDS: &[&str] =
    &["return", "yield", "in", "await", "else", "and", "or", "not", "is", "lambda"];

/// Whether `piece`, before `closing` (a line starting with `)`), ends a
/// parenthesized list of one element: `("text/event-stream",` is a tuple,
/// whose comma the joined line keeps. A list whose `(` is on an earlier
/// piece held more than one line: not one element; nor is a parameter list
/// or a call's arguments (`def auto_aiter(iterable,`, `toWebHandler<T>(app: H3,`).
fn one_element_tuple(piece: &str, closing: &str) -> bool {
    if !closing.starts_with(')') {
        return false;
    }
    let mut depth = 0;
    let body = piece.trim_end_matches(',');
    for (at, c) in body.char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth > 0 => depth -= 1,
            '(' => {
                // A name before it, even a space apart (pino's `function destination (`),
                // calls or declares; a keyword (`return (`) or an operator starts a value.
                let head = body[..at].trim_end();
                let word = head.rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).next();
                let keyword = word.is_some_and(|w| VALUE_KEYWORDS.contains(&w));
                let before = head.chars().next_back();
                return keyword
                    || !before.is_some_and(|b| b.is_alphanumeric() || matches!(b, '_' | '>' | ']' | '$'));
            }
            '[' | '{' => return false,
            ',' if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// `line` cut to at most `max` characters, marked ` …` when cut, and cut
/// between parameters or words where one ends in its second half: a cut
/// inside a word reads as another word (`case_sensitive: bool = T …`).
pub(crate) fn cut(line: &str, max: usize) -> String {
    let Some((end, _)) = line.char_indices().nth(max) else { return line.to_string() };
    let head = &line[..end];
    let half = head.len() / 2;
    // After a comma between parameters (not one inside a parameter's type:
    // `headers: Mapping[str, …`), else after any comma, else before a space,
    // else where the count ends.
    let mut depth = 0usize;
    let mut between_parameters = None;
    let mut previous = ' ';
    for (i, c) in head.char_indices() {
        let arrow = c == '>' && matches!(previous, '-' | '=');
        previous = c;
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            '>' if arrow => {}
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            ',' if depth <= 1 && head[i + 1..].starts_with(' ') => between_parameters = Some(i + 1),
            _ => {}
        }
    }
    let at = between_parameters
        .filter(|&i| i >= half)
        .or_else(|| head.rfind(", ").map(|i| i + 1).filter(|&i| i >= half))
        .or_else(|| head.rfind(' ').filter(|&i| i >= half))
        .unwrap_or(end);
    format!("{} …", line[..at].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::tags::extract;

    /// The signature of the first definition `source` holds.
    fn sig(lang: Lang, source: &str) -> String {
        extract(lang, source).unwrap().defs[0].signature.clone()
    }

    #[test]
    fn a_long_type_parameter_list_is_elided_a_short_one_kept() {
        let ts = "export interface FastifyRequest<RouteGeneric extends RouteGenericInterface = RouteGenericInterface,\n\
                  \x20 RawServer extends RawServerBase = RawServerDefault,\n\
                  \x20 Logger extends FastifyBaseLogger = FastifyBaseLogger> {\n  id: string\n}\n";
        assert_eq!(sig(Lang::TypeScript, ts), "export interface FastifyRequest<…> { id: string }");
        let ts = "export function inject<T extends object>(app: T): T { return app }\n";
        assert_eq!(sig(Lang::TypeScript, ts), "export function inject<T extends object>(app: T): T");
        let rust = "pub fn serve<L: Listener + Send + 'static, M: for<'a> Service<IncomingStream<'a, L>> + Clone>(\n\
                    \x20   listener: L,\n    make_service: M,\n) -> Serve<L, M> {\n    todo!()\n}\n";
        assert_eq!(sig(Lang::Rust, rust), "pub fn serve<…>(listener: L, make_service: M) -> Serve<L, M>");
        let rust = "pub fn parse<T: DeserializeOwned>(text: &str) -> T {\n    todo!()\n}\n";
        assert_eq!(sig(Lang::Rust, rust), "pub fn parse<T: DeserializeOwned>(text: &str) -> T");
    }

    #[test]
    fn an_object_type_named_shows_its_members_and_a_long_one_by_name() {
        // Hono's `CORSOptions`: a task adding an option needs the others.
        let source = "type CORSOptions = {\n  origin?:\n    | string\n    | string[]\n    | ((origin: string, c: Context) => \
                      Promise<string | undefined | null> | string | undefined | null)\n  allowHeaders?: string[]\n  \
                      maxAge?: number\n}\n";
        assert_eq!(
            sig(Lang::TypeScript, source),
            "type CORSOptions = { origin?: …; allowHeaders?: string[]; maxAge?: number }"
        );
        assert_eq!(sig(Lang::TypeScript, "type Empty = {}\n"), "type Empty = {…}");
    }

    #[test]
    fn a_long_type_over_lines_says_what_it_is_on_one_line() {
        // pinia's `Store`, which read `export type Store<…>` with nothing after it.
        let source = "export type Store<\n  Id extends string = string,\n  S extends StateTree = {},\n  \
                      G /* extends GettersTree<S>*/ = {},\n  // has the actions\n  A = {},\n> = _StoreWithState<Id, S, G, A> &\n  \
                      UnwrapRef<S> &\n  _StoreWithGetters<G> &\n  // StoreWithActions<A> &\n  (_ActionsTree extends A ? {} : A) &\n  \
                      PiniaCustomProperties<Id, S, G, A> &\n  PiniaCustomStateProperties<S>\n";
        let signature = sig(Lang::TypeScript, source);
        assert!(
            signature.starts_with(
                "export type Store<…> = _StoreWithState<Id, S, G, A> & UnwrapRef<S> & _StoreWithGetters<G> &"
            ),
            "{signature}"
        );
        assert!(
            signature.chars().count() <= MAX_SIGNATURE_LINE + 2 && !signature.contains('\n'),
            "{signature}"
        );
    }

    #[test]
    fn a_comment_inside_a_list_leaves_no_space_before_its_comma() {
        // pinia's `G /* extends GettersTree<S> */,` read `G ,`.
        let source = "export type Listener<\n  Id extends string,\n  G /* extends GettersTree<S> */,\n  \
                      A /* extends ActionsTree */,\n> = (id: Id, g: G, a: A) => void\n";
        assert_eq!(
            sig(Lang::TypeScript, source),
            "export type Listener<Id extends string, G, A> = (id: Id, g: G, a: A) => void"
        );
    }

    #[test]
    fn a_union_of_object_types_shows_each_with_its_members() {
        // Hono's `BasicAuthOptions`: one way to pass credentials or the other.
        let source = "export type BasicAuthOptions =\n  | {\n      username: string\n      password: string\n    }\n  \
                      | {\n      verifyUser: (username: string, password: string, c: Context) => boolean | \
                      Promise<boolean>\n      realm?: string\n    }\n";
        assert_eq!(
            sig(Lang::TypeScript, source),
            "export type BasicAuthOptions =\n  | { username: string; password: string }\n  | { verifyUser: …; realm?: string }"
        );
        // Past four arms, how many more; an arm that is no object type as it is written.
        let arms: String = (0..6).map(|i| format!("\n  | {{ kind: 'k{i}' }}")).collect();
        let source = format!("type Event ={arms}\n  | null\n");
        assert_eq!(
            sig(Lang::TypeScript, &source),
            "type Event =\n  | { kind: 'k0' }\n  | { kind: 'k1' }\n  | { kind: 'k2' }\n  | { kind: 'k3' }\n  | … (+3)"
        );
        // One written on a line stays on it.
        let source = "type Input = string | { path: string }\n";
        assert_eq!(sig(Lang::TypeScript, source), "type Input = string | { path: string }");
    }

    #[test]
    fn an_object_type_written_without_semicolons_keeps_its_members_apart() {
        let source = "export const createPool = ({\n  concurrency,\n  interval,\n}: {\n  concurrency?: number\n  \
                      interval?: Map<string, number>\n  skip?: { reason: string\n    tests: string[] }[]\n} = {}): Pool => {\n  return x\n}\n";
        let tags = extract(Lang::TypeScript, source).unwrap();
        assert_eq!(
            tags.defs[0].signature,
            "export const createPool = ({concurrency, interval}: {concurrency?: number;\n    \
             interval?: Map<string, number>; skip?: { reason: string; tests: string[] }[]} = {}): Pool =>"
        );
    }

    #[test]
    fn a_function_type_keeps_what_it_is_over_long_type_parameters() {
        let source = "export interface EventHandler<\n  Request extends EventHandlerRequest = EventHandlerRequest,\n  \
                      Response extends EventHandlerResponse = EventHandlerResponse,\n> extends Partial<Pick<H3, \"handler\">> {\n  \
                      (event: H3Event<Request>): Response;\n  websocket?: WebSocketOptions;\n}\n\n\
                      export type RequestMiddleware<\n  Request extends EventHandlerRequest = EventHandlerRequest,\n> = \
                      (event: H3Event<Request>) => void | Promise<void>;\n";
        let defs = extract(Lang::TypeScript, source).unwrap().defs;
        let signature = |name: &str| defs.iter().find(|d| d.name == name).unwrap().signature.clone();
        assert_eq!(
            signature("EventHandler"),
            "export interface EventHandler<…> extends Partial<Pick<H3, \"handler\">> \
             { (event: H3Event<Request>): Response; websocket?: WebSocketOptions }"
        );
        assert_eq!(
            signature("RequestMiddleware"),
            "export type RequestMiddleware<…> = (event: H3Event<Request>) => void | Promise<void>"
        );
    }

    #[test]
    fn a_public_struct_shows_its_public_fields_only() {
        let source = "pub struct Bar {\n    state: Arc<Mutex<State>>,\n    pos: u64,\n}\n\
                      pub struct Style {\n    pub width: u16,\n    chars: Vec<char>,\n}\n\
                      struct Inner {\n    a: u8,\n}\n";
        let defs = extract(Lang::Rust, source).unwrap().defs;
        let signature = |name: &str| defs.iter().find(|d| d.name == name).unwrap().signature.clone();
        assert_eq!(signature("Bar"), "pub struct Bar { … }");
        assert_eq!(signature("Style"), "pub struct Style { pub width: u16, … }");
        assert_eq!(signature("Inner"), "struct Inner { a: u8 }");
        // A tuple struct's fields without their docs and attributes (tracing's `Identifier`).
        let source = "pub struct Identifier(\n    /// **Warning**: the fields are `pub`\n    /// for macros.\n    \
                      #[doc(hidden)]\n    pub &'static dyn Callsite,\n);\n\
                      pub struct IntoIter(\n    #[allow(clippy::type_complexity)] // alias\n    FilterMap<u8>,\n);\n";
        let defs = extract(Lang::Rust, source).unwrap().defs;
        assert_eq!(defs[0].signature, "pub struct Identifier(pub &'static dyn Callsite)");
        assert_eq!(defs[1].signature, "pub struct IntoIter(FilterMap<u8>)");
    }

    #[test]
    fn the_items_a_cut_leaves_are_counted_at_the_list_s_own_depth() {
        // Past brackets, lambdas and arrows, up to the bracket that closes the list.
        assert_eq!(
            items_left(" b: Dict[str, int] = {},\n    c=lambda: (1, 2), d: () => void)"),
            ["b: Dict[str, int] = {}", "c=lambda: (1, 2)", "d: () => void"]
        );
        assert_eq!(items_left(", d)"), ["d"]);
        assert!(items_left(") -> int").is_empty());
    }

    #[test]
    fn a_cut_falls_between_parameters_or_words_never_inside_one() {
        let line = "def option(default: Any = ..., show_envvar: bool = True, case_sensitive: bool = True)";
        assert_eq!(cut(line, 200), line);
        assert_eq!(cut(line, 70), "def option(default: Any = ..., show_envvar: bool = True, …");
        let typed = "def respond(self, status_code: int = 200, headers: Mapping[str, str] | None = None)";
        assert_eq!(cut(typed, 75), "def respond(self, status_code: int = 200, …");
        assert_eq!(
            cut("type Headers = Partial<RawAxiosHeaders & Other>", 40),
            "type Headers = Partial<RawAxiosHeaders …"
        );
        // No boundary in the second half: cut where the count ends.
        assert_eq!(cut("x = averyveryverylongidentifierwithoutanyspaces", 20), "x = averyveryverylon …");
        for max in 1..line.len() {
            let got = cut(line, max);
            assert!(got.chars().count() <= max + 2, "{max}: {got}");
            assert!(line.starts_with(got.trim_end_matches(" …")), "{max}: {got}");
        }
    }

    #[test]
    fn a_very_long_parameter_list_is_cut_after_a_whole_line() {
        let params: Vec<String> =
            (0..80).map(|i| format!("parameter_number_{i}: Optional[bool] = None")).collect();
        let source = format!("def option(\n    {},\n):\n    pass\n", params.join(",\n    "));
        let tags = extract(Lang::Python, &source).unwrap();
        let signature = &tags.defs[0].signature;
        // The mark says how many parameters it leaves out.
        let shown = signature.matches("parameter_number_").count();
        assert!(signature.ends_with(&format!(" … (+{})", 80 - shown)), "{signature}");
        assert!(signature.chars().count() <= MAX_SIGNATURE + 8, "{signature}");
        // Every line before the mark ends a parameter: none is cut inside.
        let last = signature.lines().last().unwrap().split(" … (+").next().unwrap();
        assert!(last.ends_with("= None,") || last.ends_with("= None"), "{last}");
        // A long type alias over lines shows it goes on.
        let members: String = (0..40).map(|i| format!("  field_{i}: string;\n")).collect();
        let source = format!("type MethodsHeaders = Partial<{{\n{members}}}>;\n");
        let tags = extract(Lang::TypeScript, &source).unwrap();
        assert!(
            tags.defs[0].signature == "type MethodsHeaders = Partial<{…}>",
            "{:?}",
            tags.defs[0].signature
        );
    }

    #[test]
    fn data_types_show_their_members_on_one_line_and_say_how_many_did_not_fit() {
        let python = "@dataclass\nclass User:\n    \"\"\"A user.\"\"\"\n    name: str\n    email: str | None = None\n    def greet(self): pass\n";
        assert_eq!(sig(Lang::Python, python), "@dataclass\nclass User: name: str; email: str | None = None");
        let private = "class Message(TypedDict):\n    _form: FormData | None\n    scope: Scope\n";
        assert_eq!(sig(Lang::Python, private), "class Message(TypedDict): scope: Scope");
        // A class of behaviour is known by its methods, however many attributes it declares.
        let behaviour = "class Environment:\n    sandboxed: bool = False\n    def render(self): pass\n";
        assert_eq!(sig(Lang::Python, behaviour), "class Environment:");
        let plain = "class Options:\n    debug: bool = False\n";
        assert_eq!(sig(Lang::Python, plain), "class Options: debug: bool = False");
        // When not one member fits, none is shown, nor a count of what did not.
        let table: String = (0..30).map(|i| format!("\"k{i}\": {i}, ")).collect();
        let wide =
            format!("class Table(NamedTuple):\n    binops: dict[str, int] = {{{table}}}\n    size: int\n");
        assert_eq!(sig(Lang::Python, &wide), "class Table(NamedTuple):");
        assert_eq!(
            sig(Lang::Python, "class Runner:\n    limit = 3\n    def run(self): pass\n"),
            "class Runner:"
        );
        let rust = "pub struct Pair<T> {\n    /// The left.\n    #[serde(default)]\n    pub left: T,\n    right: T,\n}\n";
        // Docs and attributes out; a public struct's private field is only `…`.
        assert_eq!(sig(Lang::Rust, rust), "pub struct Pair<T> { pub left: T, … }");
        // `pub(crate)` is no `pub` (minijinja's `Environment`).
        let crate_only = "pub struct Env {\n    pub(crate) callback: u8,\n    pub name: String,\n}\n";
        assert_eq!(sig(Lang::Rust, crate_only), "pub struct Env { pub name: String, … }");
        assert_eq!(sig(Lang::Rust, "struct Id(u64);"), "struct Id(u64)");
        assert_eq!(
            sig(Lang::Rust, "enum E {\n    A,\n    B { x: u8 },\n    C(String),\n}\n"),
            "enum E { A, B { x: u8 }, C(String) }"
        );
        let many: String = (0..40).map(|i| format!("    pub field_number_{i}: u32,\n")).collect();
        let long = sig(Lang::Rust, &format!("pub struct Wide {{\n{many}}}\n"));
        assert!(long.starts_with("pub struct Wide { pub field_number_0: u32, "), "{long}");
        assert!(long.ends_with(" … (+35) }") && long.chars().count() <= MAX_MEMBERS_LINE, "{long}");
        let ts = "interface Repo {\n  find(id: string): Item;\n  size: number\n}\n";
        assert_eq!(sig(Lang::TypeScript, ts), "interface Repo { find(id: string): Item; size: number }");
    }

    #[test]
    fn a_constant_whose_value_goes_on_shows_all_of_it_when_short_else_its_first_line_closed() {
        let proxy =
            "current_app: FlaskProxy = LocalProxy(  # type: ignore[assignment]\n    _cv_app, \"app\"\n)\n";
        assert_eq!(sig(Lang::Python, proxy), "current_app: FlaskProxy = LocalProxy(_cv_app, \"app\")");
        // Brackets in strings and comments are text, not brackets.
        let table = format!("CODES = {{\"(\": [1,  # a [ in a comment\n    2]{}}}\n", ", 3".repeat(40));
        assert_eq!(sig(Lang::Python, &table), "CODES = {\"(\": [1,…]}");
        assert_eq!(sig(Lang::Python, "CODES = {\"(\": [1,  # a [\n    2]}\n"), "CODES = {\"(\": [1, 2]}");
        // A string over lines is never joined: that would change it.
        assert_eq!(
            sig(Lang::Python, "HELP = \"\"\"Usage: [opts]\nMore.\n\"\"\"\n"),
            "HELP = \"\"\"Usage: [opts] …"
        );
        assert_eq!(sig(Lang::Python, "LIMIT = 10  # seconds\n"), "LIMIT = 10");
        let rust = "pub const NAMES: &[&'static str] = &[\n    \"a\",\n];\n";
        assert_eq!(sig(Lang::Rust, rust), "pub const NAMES: &[&'static str] = &[\"a\"]");
        let long: String = (0..30).map(|i| format!("    \"name_{i}\",\n")).collect();
        let rust = format!("pub const NAMES: &[&'static str] = &[\n{long}];\n");
        assert_eq!(sig(Lang::Rust, &rust), "pub const NAMES: &[&'static str] = &[…]");
        assert_eq!(sig(Lang::Rust, "const N: u32 =\n    5;\n"), "const N: u32 = 5");
        // A tuple of one keeps the comma that makes it one; a list's last comma goes.
        assert_eq!(
            sig(Lang::Python, "TYPES = (\n    \"text/event-stream\",\n)\n"),
            "TYPES = (\"text/event-stream\",)"
        );
        // A name a space before the list (pino's style) declares it: no tuple.
        assert_eq!(
            sig(Lang::TypeScript, "export function destination (\n  dest?: number | string,\n): SonicBoom\n"),
            "export function destination (dest?: number | string): SonicBoom"
        );
        assert!(one_element_tuple("return (1,", ")") && !one_element_tuple("def f (x,", ")"));
        assert_eq!(sig(Lang::Python, "TYPES = (\n    \"a\",\n    \"b\",\n)\n"), "TYPES = (\"a\", \"b\")");
        assert_eq!(sig(Lang::Python, "TYPES = (f(a, b),\n)\n"), "TYPES = (f(a, b),)");
        assert_eq!(sig(Lang::Python, "TYPES = (a, b,\n)\n"), "TYPES = (a, b)");
        // A parameter list of one is no tuple.
        let python =
            "def auto_aiter(\n    iterable: \"t.Iterable[V]\",\n) -> \"t.AsyncIterator[V]\":\n    pass\n";
        assert_eq!(
            sig(Lang::Python, python),
            "def auto_aiter(iterable: \"t.Iterable[V]\") -> \"t.AsyncIterator[V]\":"
        );
        let ts = "export function toWebHandler(\n  app: H3,\n): Handler {\n  return x;\n}\n";
        assert_eq!(sig(Lang::TypeScript, ts), "export function toWebHandler(app: H3): Handler");
        let ts = "export const routes = {\n  home: \"/\",\n};\n";
        assert_eq!(sig(Lang::TypeScript, ts), "export const routes = {home: \"/\"}");
        // Code is never joined in: a body is not a signature.
        let ts = "const isType = pick(utils, function filter(p) {\n  return /^is/.test(p);\n});\n";
        assert_eq!(sig(Lang::TypeScript, ts), "const isType = pick(utils, function filter(p) {…})");
    }

    #[test]
    fn a_long_string_is_data_its_quotes_stand_for_it() {
        let path =
            "M0 8a8 8 0 1 1 16 0A8 8 0 0 1 0 8Zm8-6.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13Z".repeat(2);
        let rust = format!("const ICON_NOTE: &str = r#\"<path d=\"{path}\"></path>\"#;\n");
        assert_eq!(sig(Lang::Rust, &rust), "const ICON_NOTE: &str = r#\"…\"#;");
        let python = format!("def render(icon='{path}', size=16):\n    pass\n");
        assert_eq!(sig(Lang::Python, &python), "def render(icon='…', size=16):");
        let ts = format!("export const banner = `{path}`;\n");
        assert_eq!(sig(Lang::TypeScript, &ts), "export const banner = `…`;");
        let quoted = format!("const QUOTE = \"{path} \\\"\";\n");
        assert_eq!(sig(Lang::TypeScript, &quoted), "const QUOTE = \"…\";");
        let triple = format!("HELP = \"\"\"{path}\"\"\"\n");
        assert_eq!(sig(Lang::Python, &triple), "HELP = \"\"\"…\"\"\"");
        // A message is what the constant is: shown.
        let short = "ENFORCE = \"Domain wildcard patterns must be like '*.example.com'.\"\n";
        assert_eq!(sig(Lang::Python, short), short.trim_end());
    }

    #[test]
    fn a_type_alias_over_lines_shows_all_of_it_on_up_to_two() {
        let rust = "pub type Formatter<\n    N = format::DefaultFields,\n    E = format::Format<format::Full>,\n    \
                    W = fn() -> io::Stdout,\n> = layer::Layered<fmt_layer::Layer<Registry, N, E, W>, Registry>;\n";
        assert_eq!(
            sig(Lang::Rust, rust),
            "pub type Formatter<N = format::DefaultFields, E = format::Format<format::Full>,\n    \
             W = fn() -> io::Stdout> = layer::Layered<fmt_layer::Layer<Registry, N, E, W>, Registry>"
        );
        let ts = "export type Method =\n  | 'get'\n  | 'post'; // the verbs\n";
        assert_eq!(sig(Lang::TypeScript, ts), "export type Method = | 'get' | 'post'");
    }
}
