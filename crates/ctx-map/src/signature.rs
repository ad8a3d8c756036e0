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

/// The function a declarator's value casts (TypeScript's `(…) as T`, `…
/// satisfies T`), and the type it casts it to.
fn cast_function(declarator: Node) -> Option<(Node, Node)> {
    let value = declarator.child_by_field_name("value")?;
    if !matches!(value.kind(), "as_expression" | "satisfies_expression") {
        return None;
    }
    // Through a second cast (`(…) as unknown as Middleware`) and parentheses.
    let mut function = value.named_child(0)?;
    while matches!(function.kind(), "parenthesized_expression" | "as_expression") {
        function = function.named_child(0)?;
    }
    let ty = value.named_child(u32::try_from(value.named_child_count().checked_sub(1)?).ok()?)?;
    matches!(function.kind(), "arrow_function" | "function_expression").then_some((function, ty))
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
/// before it (but `@overload` when `overloads` says it is one of a set, and
/// how many other overloads the set has),
/// and a Rust test attribute ([`test_attribute`]).
/// A definition without a body (a constant, a type alias) shows its first
/// line, cut to [`MAX_SIGNATURE_LINE`] characters.
///
/// Also the items of a parameter list cut after [`MAX_SIGNATURE`] characters
/// leaves out (`… (+N)`), one line each, for a task that names one of them.
pub(crate) fn signature(
    source: &str,
    node: Node,
    kind: Kind,
    overloads: Option<usize>,
) -> (String, Vec<String>) {
    let (text, left_out) = unmarked_signature(source, node, kind, overloads);
    // Rust's `#[macro_export]` and `#[doc(hidden)]` say who sees it, on its line.
    (format!("{}{text}", visibility_attributes(node, source.as_bytes())), left_out)
}

/// [`signature`] without the attributes that say who sees it.
fn unmarked_signature(
    source: &str,
    node: Node,
    kind: Kind,
    overloads: Option<usize>,
) -> (String, Vec<String>) {
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
    // A function cast to its type (`const createStore = ((s) => …) as CreateStore`) reads
    // as the typed constant it is: `const createStore: CreateStore = (s) =>`.
    if let Some((function, ty)) = cast_function(node) {
        let value = node.child_by_field_name("value").unwrap_or(node);
        let head = shown_text(source, outer, start, value.start_byte());
        let head = head.trim_end().trim_end_matches('=').trim_end();
        let end = function.child_by_field_name("body").map_or(function.end_byte(), |b| b.start_byte());
        let function = shown_text(source, outer, function.start_byte(), end);
        // Unless it says its type itself (got's `const got: Got = ((url) => …) as Got`).
        let typed = if node.child_by_field_name("type").is_some() {
            String::new()
        } else {
            format!(": {}", &source[ty.byte_range()])
        };
        let text = format!("{head}{typed} = {}", function.trim_end());
        return (join_lines(&text), Vec::new());
    }
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
    if let Some(more) = overloads.filter(|&n| n > 0) {
        header.push_str(&format!(" (+{})", ctxkeep_core::wording::count(more, "overload")));
    }
    let mut out: Vec<String> =
        test_attribute(node, bytes).into_iter().map(|attribute| cut(attribute, MAX_SIGNATURE_LINE)).collect();
    out.extend(
        decorators(node, bytes)
            .into_iter()
            .filter(|d| KEPT_DECORATORS.contains(&decorator_name(d)))
            .filter(|d| overloads.is_none() || decorator_name(d) != "overload")
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
/// Longest member shown whole among those listed by name, in characters.
const SHORT_MEMBER: usize = 24;
/// Most lines a data type's members go on to after its header's: those that
/// did not fit there, by name (ofetch's `FetchOptions`, whose `timeout`,
/// `retry` and ten more options were `… (+12)`).
const MORE_MEMBER_LINES: usize = 2;

/// One member of a data type, as [`members`] lists it.
struct Member {
    /// As written, on one line.
    whole: String,
    /// By name alone (`timeout?: …`, `pub retries: …`, `Status(…)`), for a
    /// line of those that did not fit whole; `None` when it has no name.
    named: Option<String>,
    /// What calling the type looks like (a TypeScript call or construct
    /// signature): shown whole, on a line of its own if need be.
    call: bool,
    /// A definition of its own (an interface's method), which the map shows
    /// on its own line when it does not fit the header's.
    own_def: bool,
}

/// What a data type's `body` declares, to follow its header on the
/// header's last line (`width` characters so far): a Rust struct's fields
/// (`{ pub x: f64, pub y: f64 }`, `(pub f64)`) or an enum's variants, a
/// TypeScript interface's members, a Python class's annotated attributes
/// (a dataclass, a TypedDict: `class User: name: str; email: str | None = None`).
/// As many as fit [`MAX_MEMBERS_LINE`] whole, then the others by name on up
/// to [`MORE_MEMBER_LINES`] lines, then how many more; empty when the body
/// declares none (a class of methods).
fn members(source: &str, body: Node, width: usize) -> String {
    let text = |node: Node| {
        squeeze_spaces(&join_lines(source.get(node.byte_range()).unwrap_or("")).replace("\n    ", " "))
    };
    // `node` up to the end of its name, then `: …` (`(…)` for what takes parameters).
    let by_name = |node: Node, after: &str| {
        let name = node.child_by_field_name("name")?;
        let optional = source.get(name.end_byte()..).is_some_and(|rest| rest.starts_with('?'));
        let head = join_lines(source.get(node.start_byte()..name.end_byte())?).replace("\n    ", " ");
        Some(format!("{head}{}{after}", if optional { "?" } else { "" }))
    };
    let mut cursor = body.walk();
    let children: Vec<Node> = body.named_children(&mut cursor).collect();
    let (open, separator, close, items): (&str, &str, &str, Vec<Member>) = match body.kind() {
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
            // One entry per name: variants or fields under exclusive `#[cfg]`s (reqwest's
            // `Status(StatusCode, …)` and, on wasm, `Status(StatusCode)`) read as one type.
            let mut names = std::collections::HashSet::new();
            let all: Vec<Node> = children
                .iter()
                .copied()
                .filter(|c| matches!(c.kind(), "field_declaration" | "enum_variant"))
                .filter(|c| {
                    let name =
                        c.child_by_field_name("name").and_then(|n| n.utf8_text(source.as_bytes()).ok());
                    name.is_none_or(|name| names.insert(name))
                })
                .collect();
            let mut items: Vec<Member> = all
                .iter()
                .filter(|&&c| !hides || public(c))
                .map(|&c| {
                    let named = match c.child_by_field_name("body").map(|b| b.kind()) {
                        _ if c.kind() == "field_declaration" => by_name(c, ": …"),
                        Some("ordered_field_declaration_list") => by_name(c, "(…)"),
                        Some(_) => by_name(c, " { … }"),
                        None => Some(text(c)),
                    };
                    Member { whole: text(c), named, call: false, own_def: false }
                })
                .collect();
            if items.len() < all.len() {
                items.push(Member {
                    whole: "…".into(),
                    named: Some("…".into()),
                    call: false,
                    own_def: false,
                });
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
                .map(|&c| {
                    let named = c.child_by_field_name("name").map_or_else(|| text(c), text);
                    Member { whole: text(c), named: Some(named), call: false, own_def: false }
                })
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
                        "property_signature"
                            | "method_signature"
                            | "index_signature"
                            | "call_signature"
                            | "construct_signature"
                    )
                })
                .map(|&c| {
                    let item = text(c).trim_end_matches([';', ',']).to_string();
                    let call = matches!(c.kind(), "call_signature" | "construct_signature");
                    let own_def = c.kind() == "method_signature";
                    let named = by_name(c, ": …").filter(|_| c.kind() == "property_signature");
                    // A property whose type runs long (`origin?: | string | string[] | ((…) =>
                    // …)`) says its name: the others still fit beside it.
                    let whole = match &named {
                        Some(short) if item.chars().count() > MAX_MEMBER => short.clone(),
                        _ => item,
                    };
                    Member { whole, named, call, own_def }
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
                .map(|a| {
                    let named = a.child_by_field_name("left").map(|name| format!("{}: …", text(name)));
                    Member { whole: text(a), named, call: false, own_def: false }
                })
                .collect();
            // The header ends with its `:`.
            (" ", "; ", "", items)
        }
        _ => return String::new(),
    };
    lay_out_members(&items, width, (open, separator, close))
}

/// `text` with each run of spaces outside quotes one space: members aligned
/// in columns (ratatui's `BOLD              = 0b0000_0000_0001`) read apart.
fn squeeze_spaces(text: &str) -> String {
    let (mut out, mut quote, mut previous) = (String::with_capacity(text.len()), None, '\0');
    for c in text.chars() {
        match quote {
            Some(q) if c == q && previous != '\\' => quote = None,
            // Not `'`: Rust's lifetimes (`&'a str`) open nothing.
            None if matches!(c, '"' | '`') => quote = Some(c),
            None if c == ' ' && previous == ' ' => continue,
            _ => {}
        }
        out.push(c);
        previous = c;
    }
    out
}

/// `items` after a header whose last line is `width` characters wide: whole
/// on that line as far as [`MAX_MEMBERS_LINE`] goes, the rest on at most
/// [`MORE_MEMBER_LINES`] lines of [`WRAP`], by name (a call signature whole,
/// on a line of its own; a method not at all, the map shows it), then `…
/// (+N)` for any still left; empty when there are none, or when not even the
/// first fits anywhere (`… (+4)` alone would only say something was left out).
fn lay_out_members(items: &[Member], width: usize, (open, separator, close): (&str, &str, &str)) -> String {
    // Room kept for the `… (+N)` that says what was left out.
    const MARK: usize = 12;
    const INDENT: &str = "    ";
    let room = MAX_MEMBERS_LINE.saturating_sub(width + open.len() + close.len());
    let mut first = String::new();
    let mut placed = 0;
    for (k, item) in items.iter().enumerate() {
        let more = if k + 1 < items.len() { MARK } else { 0 };
        let taken = first.chars().count() + if first.is_empty() { 0 } else { separator.len() };
        if taken + item.whole.chars().count() + more > room {
            break;
        }
        if !first.is_empty() {
            first.push_str(separator);
        }
        first.push_str(&item.whole);
        placed += 1;
    }
    // The others on lines of their own, one level in.
    let (mut more_lines, mut left) = (Vec::<String>::new(), 0);
    for (k, item) in items.iter().enumerate().skip(placed) {
        let piece = match item {
            Member { own_def: true, .. } => continue,
            Member { call: true, whole, .. } => cut(whole, MAX_MEMBERS_LINE - INDENT.len()),
            // Short as it is (`native: Fetch`, `timeout?: number`), it says more than its name.
            Member { whole, named: Some(_), .. } if whole.chars().count() <= SHORT_MEMBER => whole.clone(),
            Member { named: Some(named), .. } => named.clone(),
            Member { named: None, .. } => {
                left = items[k..].iter().filter(|m| !m.own_def).count();
                break;
            }
        };
        let last_line = more_lines.len() == MORE_MEMBER_LINES;
        let more = if last_line && k + 1 < items.len() { MARK } else { 0 };
        let fits = |line: &String| {
            !item.call
                && INDENT.len() + line.chars().count() + separator.len() + piece.chars().count() + more
                    <= WRAP
        };
        if let Some(line) = more_lines.last_mut().filter(|line| fits(line)) {
            line.push_str(separator);
            line.push_str(&piece);
        } else if !last_line {
            more_lines.push(piece);
        } else {
            left = items[k..].iter().filter(|m| !m.own_def).count();
            break;
        }
    }
    if first.is_empty() && more_lines.is_empty() {
        return String::new();
    }
    if left > 0 {
        let line = more_lines.last_mut().unwrap_or(&mut first);
        if !line.is_empty() {
            line.push_str(separator);
        }
        line.push_str(&format!("… (+{left})"));
    }
    let mut out = match first.as_str() {
        "" => open.trim_end().to_string(),
        line => format!("{open}{line}"),
    };
    for (k, line) in more_lines.iter().enumerate() {
        if k > 0 || !first.is_empty() {
            out.push_str(separator.trim_end());
        }
        out.push('\n');
        out.push_str(INDENT);
        out.push_str(line);
    }
    out.push_str(close);
    out
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
        // Nor two spaces where one stood on each side (`= /* @__PURE__ */ immer.produce`), nor
        // one after an opening bracket (`(#[allow(dead_code)] Option<…>)`).
        if cut == Cut::Comment && text.ends_with([' ', '\t', '(', '[', '<']) {
            at = to
                + source.get(to..).map_or(0, |rest| rest.len() - rest.trim_start_matches([' ', '\t']).len());
            continue;
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
/// or a call's arguments (`def auto_aiter(iterable,`, `toWebHandler<T>(app: H3,`),
/// nor an arrow function's parameters.
fn one_element_tuple(piece: &str, closing: &str) -> bool {
    if !closing.starts_with(')') {
        return false;
    }
    // An arrow function's parameters, typed or not (`= (value: T,⏎): value is T =>`).
    let after = closing[1..].trim_start();
    if after.starts_with(':') || after.starts_with("=>") {
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
mod tests;
