//! Extraction: a file's definitions and references from its tree-sitter
//! parse and its language's tags query, with the node tests that decide what
//! counts (a callback's inner function, a demo under `__main__`, an inline
//! type's members are no definitions).

use std::cell::RefCell;

use rustc_hash::FxHashMap as HashMap;
use tree_sitter::{Node, Parser, QueryCursor, StreamingIterator};

use super::imports::{import_source, in_pub_use, node_is_import, renamed_import, renamed_to};
use super::{Def, FileTags, Kind, Name, Ref, default_export, imports};
use crate::attributes::is_overload;
use crate::lang::Lang;
use crate::signature::signature;

/// Tags of `source` in `lang`.
pub fn extract(lang: Lang, source: &str) -> Result<FileTags, String> {
    thread_local! {
        static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::default());
    }
    let query = lang.query()?;
    let parse = |text: &str| {
        PARSERS.with_borrow_mut(|parsers| {
            let parser = match parsers.entry(lang) {
                std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
                std::collections::hash_map::Entry::Vacant(entry) => {
                    let mut parser = Parser::new();
                    parser.set_language(&lang.grammar()).map_err(|err| format!("{}: {err}", lang.name()))?;
                    entry.insert(parser)
                }
            };
            parser.parse(text, None).ok_or_else(|| format!("{}: the parser gave up", lang.name()))
        })
    };
    let tree = parse(source)?;
    // Rust items written inside a macro's braces (`feature! { pub fn registry() … }`,
    // tokio's `cfg_rt! { … }`) are items all the same: read as if the braces were not there.
    let unwrapped = match lang {
        Lang::Rust => crate::item_macros::unwrapped(tree.root_node(), source),
        _ => None,
    };
    let original = source;
    let (source, tree) = match unwrapped.as_deref() {
        Some(text) => match parse(text)? {
            // Unless that reads worse: a macro's own syntax (`lazy_static! { static ref … }`).
            bare if bare.root_node().has_error() && !tree.root_node().has_error() => (source, tree),
            bare => (text, bare),
        },
        None => (source, tree),
    };
    let root = tree.root_node();
    let bytes = source.as_bytes();
    let names = query.capture_names();

    struct RawDef<'t> {
        node: Node<'t>,
        name: String,
        name_range: (usize, usize),
        kind: Kind,
        /// The first declaration of its overload set (else the node itself), and
        /// how many other overloads the set declares (`None`: it is no set).
        first: Node<'t>,
        overloads: Option<usize>,
        /// For a property descriptor's accessor named for its property, how its
        /// signature reads (`get server`, `get [kRouteContext]`).
        accessor: Option<String>,
    }
    let mut raw: Vec<RawDef> = Vec::new();
    // (name's range, name, how it is used, what it is called on, whether it is passed on).
    type UseAt<'s> = ((usize, usize), String, Use, Option<&'s str>, bool);
    let mut refs: Vec<UseAt> = Vec::new();
    // Type parameters by name, with the byte range of the declaration taking them.
    let mut type_parameters: Vec<(String, (usize, usize))> = Vec::new();
    // Names the file binds to modules (`import numpy as np`).
    let mut modules: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    // Names bound to what another module exports (`const m = require("m")`): no definitions.
    let mut imported: rustc_hash::FxHashSet<(usize, usize)> = rustc_hash::FxHashSet::default();
    // Per imported name, the module it comes from (the first import of it). One that binds
    // it under its own name says where the file's uses of it go: tqdm's `__init__.py`
    // imports `tqdm` from `.std`, and `from .gui import tqdm as tqdm_gui`.
    let mut sources: HashMap<String, String> = HashMap::default();
    let mut renamed_sources: HashMap<String, String> = HashMap::default();
    // Per imported name, what it is bound as when every import of it renames it.
    let mut aliases: HashMap<String, String> = HashMap::default();
    let mut unrenamed: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    // Names bound to a module's default export (`const express = require('../')`).
    let mut whole: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, root, bytes);
    while let Some(m) = matches.next() {
        let mut name = None;
        let mut tagged = None;
        let mut used = Use::Bare;
        let mut object = None;
        let mut exported = false;
        let mut type_use = false;
        for capture in m.captures() {
            let capture_name = names[capture.index as usize];
            if capture_name == "name" {
                name = Some(capture.node);
            } else if capture_name == "object" {
                object = capture.node.utf8_text(bytes).ok();
            } else if capture_name == "module" {
                modules.extend(capture.node.utf8_text(bytes).ok());
                // `const express = require('../')`: its uses (`express()`) are of that module's export.
                if let (Ok(name), Some(module)) =
                    (capture.node.utf8_text(bytes), default_export::required_module(capture.node, bytes))
                {
                    sources.entry(name.to_string()).or_insert(module);
                    whole.insert(name.to_string());
                }
            } else if capture_name == "import" {
                if !exports_an_alias(capture.node) {
                    imported.insert((capture.node.start_byte(), capture.node.end_byte()));
                }
            } else if let Some(kind) = capture_name.strip_prefix("definition.") {
                tagged = Some((Some(kind), capture.node));
            } else if let Some(kind) = capture_name.strip_prefix("reference.") {
                tagged = Some((None, capture.node));
                used = match kind {
                    "member" => Use::Member,
                    "method" => Use::Method,
                    _ => Use::Bare,
                };
                exported = kind == "export" || (kind == "import" && in_pub_use(capture.node, bytes));
                type_use = kind == "type";
            }
        }
        let (Some(name_node), Some((kind, node))) = (name, tagged) else { continue };
        let Ok(text) = name_node.utf8_text(bytes) else { continue };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let range = (name_node.start_byte(), name_node.end_byte());
        let renamed = renamed_import(name_node);
        if kind.is_none()
            && node_is_import(node)
            && let Some(module) = import_source(lang, name_node, bytes)
        {
            let sources = if renamed { &mut renamed_sources } else { &mut sources };
            sources.entry(text.to_string()).or_insert(module);
            // `import express from '..'`: the module's default export.
            if name_node.parent().is_some_and(|p| p.kind() == "import_clause") {
                whole.insert(text.to_string());
            }
        }
        // The name it binds or passes on instead (`export { ssrSafe as unstable_ssrSafe }`).
        if kind.is_none() && node_is_import(node) {
            match renamed.then(|| renamed_to(name_node, bytes)).flatten() {
                Some(alias) => {
                    aliases.entry(text.to_string()).or_insert(alias);
                }
                None => {
                    unrenamed.insert(text.to_string());
                }
            }
        }
        match kind.and_then(Kind::parse) {
            Some(_) if lang.is_javascript_like() && in_callback(node) => {}
            Some(Kind::Method) if lang.is_javascript_like() && in_inline_type(node) => {}
            Some(_) if lang == Lang::Python && under_main_guard(node, bytes) => {}
            Some(kind) => {
                let accessor = match (kind, text) {
                    (Kind::Method, "get") if lang.is_javascript_like() => Some("get"),
                    (Kind::Method, "set") if lang.is_javascript_like() => Some("set"),
                    _ => None,
                };
                let property =
                    accessor.and_then(|keyword| Some((keyword, descriptor_property(node, bytes)?)));
                // A descriptor's `get()` for a property named at run time (`defineProperty(proto,
                // prop, { get() {…} })` in a loop) defines nothing a reader could look up.
                if accessor.is_some() && property.is_none() && in_call_arguments(node) {
                    continue;
                }
                raw.push(RawDef {
                    node,
                    name: property.as_ref().map_or_else(|| text.to_string(), |(_, (name, _))| name.clone()),
                    name_range: range,
                    kind,
                    first: node,
                    overloads: None,
                    accessor: property.map(|(keyword, (_, written))| format!("{keyword} {written}")),
                })
            }
            None if kind.is_none() => match type_use.then(|| type_parameter_scope(name_node)).flatten() {
                // A generic's parameter (`<CustomLevels extends string>`) is the
                // declaration's own name, not a use of a type by that name elsewhere.
                Some(scope) => type_parameters.push((text.to_string(), scope)),
                None => refs.push((range, text.to_string(), used, object, exported)),
            },
            None => {}
        }
    }
    // Uses of a type parameter, inside the declaration that takes it, are none of another's.
    if !type_parameters.is_empty() {
        refs.retain(|(range, name, ..)| {
            !type_parameters.iter().any(|(p, scope)| p == name && scope.0 <= range.0 && range.1 <= scope.1)
        });
    }

    raw.retain(|def| !imported.contains(&def.name_range));
    // One definition per node and name (a Rust method matches as function twice); of a
    // constant and something more telling (a Python type alias), the latter.
    raw.sort_by(|a, b| {
        (a.node.start_byte().cmp(&b.node.start_byte()))
            .then(b.node.end_byte().cmp(&a.node.end_byte()))
            .then((a.kind == Kind::Constant).cmp(&(b.kind == Kind::Constant)))
    });
    raw.dedup_by(|b, a| a.node.id() == b.node.id() && a.name == b.name);
    let def_names: rustc_hash::FxHashSet<(usize, usize)> =
        raw.iter().filter(|d| d.kind.defines_name()).map(|d| d.name_range).collect();

    // One entry per overload set: its declarations merge into the member that
    // follows them (whose node holds what the set contains).
    let mut merged: Vec<RawDef> = Vec::with_capacity(raw.len());
    for mut def in raw {
        if let Some(last) = merged.last()
            && last.name == def.name
            && last.kind == def.kind
            && last.node.end_byte() <= def.node.start_byte()
            && is_overload(last.node, bytes)
        {
            def.first = last.first;
            // Declarations before this one (`last` is an overload: its count is of those before it).
            // The first is shown; the set's implementation (a body after its overloads) is none.
            let before = last.overloads.unwrap_or(0) + 1;
            def.overloads = Some(if is_overload(def.node, bytes) { before } else { before - 1 });
            merged.pop();
        }
        merged.push(def);
    }
    let raw = merged;
    // Parents by containment: a stack of the definitions still open.
    let lines: Vec<&str> = source.lines().collect();
    let mut defs: Vec<Def> = Vec::with_capacity(raw.len());
    let mut open: Vec<usize> = Vec::new();
    // Per factory function (by index), the names of its own functions it hands out.
    let mut handed_out: HashMap<usize, rustc_hash::FxHashSet<&str>> = HashMap::default();
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
            // A factory's function it hands out in an object (pino's `multistream()`
            // returning `{ add, remove, … }`) is a method of what it makes.
            (Kind::Function, Some(Kind::Function))
                if lang.is_javascript_like()
                    && parent.is_some_and(|p| {
                        handed_out
                            .entry(p)
                            .or_insert_with(|| hands_out(raw[p].node, bytes))
                            .contains(def.name.as_str())
                    }) =>
            {
                Kind::Method
            }
            (kind, _) => kind,
        };
        let (shown, left_out) = signature(source, def.first, kind, def.overloads);
        defs.push(Def {
            name: def.name.as_str().into(),
            kind,
            line: def.first.start_position().row as u32 + 1,
            end_line: def.node.end_position().row as u32 + 1,
            signature: match &def.accessor {
                // `get ()` says nothing; `get server ()` is how JavaScript writes a getter.
                Some(head) => {
                    let keyword = head.split(' ').next().unwrap_or(head);
                    shown.replacen(keyword, head, 1)
                }
                None => shown,
            },
            left_out,
            parent: parent.map(|p| p as u32),
            deprecated: crate::deprecated::is_deprecated(
                &lines,
                lang,
                def.first.start_position().row,
                def.node.end_position().row,
            ),
        });
        open.push(defs.len() - 1);
    }
    if unwrapped.is_some() {
        crate::item_macros::bitflags_structs(original, &mut defs);
    }
    deprecated_with_their_type(&mut defs);

    for (name, module) in renamed_sources {
        sources.entry(name).or_insert(module);
    }
    // References, less the names of definitions (a query may capture those as uses too).
    // A use on something says more once the file's modules are known.
    for (_, name, used, object, _) in &mut refs {
        if let (Use::Member, Some(object)) = (*used, *object) {
            *used = qualified(lang, object, name, &modules);
        }
    }
    // A name two patterns capture is one use, of the least bound kind either says.
    refs.sort();
    refs.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.2 = kept.2.max(later.2);
            kept.4 |= later.4;
        }
        same
    });
    // Per name: how many uses, how many bare, how many on a value, and the types it is called on.
    let mut counts: HashMap<String, [u32; 4]> = HashMap::default();
    let mut owners: HashMap<String, HashMap<&str, u32>> = HashMap::default();
    for (range, name, used, object, passed_on) in refs {
        // A definition's own name is no use of it, but may be passed on where it is defined
        // (`module.exports = class Application`): exported, never counted as used.
        if def_names.contains(&range) && passed_on {
            counts.entry(name).or_default()[3] += 1;
            continue;
        }
        if !def_names.contains(&range) {
            // A type's method is called on the type: Rust's and Python's uses that only a
            // method answers, JavaScript's that may mean either (`AxiosHeaders.from()`).
            let on_type = used == Use::Method || (used == Use::Member && lang.is_javascript_like());
            if let Some(owner) = object.filter(|_| on_type).and_then(|o| type_called_on(lang, o)) {
                *owners.entry(name.clone()).or_default().entry(owner).or_default() += 1;
            }
            let [count, bare, method, exported] = counts.entry(name).or_default();
            *count += 1;
            *bare += u32::from(used == Use::Bare);
            *method += u32::from(used == Use::Method);
            *exported += u32::from(passed_on);
        }
    }
    let mut refs: Vec<Ref> = counts
        .into_iter()
        .map(|(name, [count, bare, method, exported])| {
            let from = sources.remove(&name);
            let alias = aliases.remove(&name).filter(|_| !unrenamed.contains(&name));
            let default_import = whole.contains(&name);
            let mut owners: Vec<(Name, u32)> = owners
                .remove(&name)
                .unwrap_or_default()
                .into_iter()
                .map(|(o, n)| (Name::from(o), n))
                .collect();
            owners.sort();
            let name = Name::from(name);
            Ref { name, count, bare, method, exported, from, alias, default_import, owners }
        })
        .collect();
    refs.sort_by(|a, b| a.name.cmp(&b.name));
    let (private_modules, public_modules) =
        if lang == Lang::Rust { module_declarations(root, bytes) } else { Default::default() };
    let (default_export, reexports_all) = match lang {
        _ if lang.is_javascript_like() => {
            (default_export::default_export(root, bytes), default_export::reexported_modules(root, bytes))
        }
        Lang::Rust => (None, imports::rust_glob_reexports(root, bytes)),
        _ => (None, Vec::new()),
    };
    Ok(FileTags {
        defs,
        refs,
        syntax_errors: root.has_error(),
        // Said by the file's top, not its syntax: set where files are read (`index`).
        generated: None,
        private_modules,
        public_modules,
        default_export,
        reexports_all,
    })
}

/// Marks deprecated what a deprecated type holds, and what a Rust impl of it
/// in the file does (chrono's `#[deprecated] pub struct Date`, whose methods sit in
/// `impl<Tz: TimeZone> Date<Tz>`): an agent shown `Date::and_hms_opt` as API
/// calls what its maintainers are taking away.
fn deprecated_with_their_type(defs: &mut [Def]) {
    let types: Vec<Name> = defs
        .iter()
        .filter(|d| d.deprecated && d.parent.is_none() && d.kind.defines_name() && d.kind != Kind::Function)
        .map(|d| d.name.clone())
        .collect();
    if types.is_empty() {
        return;
    }
    for d in 0..defs.len() {
        let deprecated = std::iter::successors(defs[d].parent(defs), |p| p.parent(defs)).any(|p| {
            // `Date<Tz>` of `impl<Tz: TimeZone> Date<Tz>`.
            let named = p.name.split('<').next().unwrap_or(&p.name).trim();
            p.deprecated || (p.kind == Kind::Impl && types.iter().any(|t| t == named))
        });
        defs[d].deprecated |= deprecated;
    }
}

/// The names of the top-level `mod name;` declarations (no body: the module is
/// another file): those without a plain `pub`, and those with one, each sorted.
fn module_declarations(root: Node, bytes: &[u8]) -> (Vec<String>, Vec<String>) {
    let (mut private, mut public) = (Vec::new(), Vec::new());
    let mut cursor = root.walk();
    for item in root.children(&mut cursor) {
        if item.kind() != "mod_item" || item.child_by_field_name("body").is_some() {
            continue;
        }
        let Some(name) = item.child_by_field_name("name").and_then(|n| n.utf8_text(bytes).ok()) else {
            continue;
        };
        let list = if imports::is_plain_pub(item, bytes) { &mut public } else { &mut private };
        list.push(name.to_string());
    }
    private.sort();
    public.sort();
    (private, public)
}

/// The names JavaScript function `factory` puts in an object it builds
/// (`return { add, remove }`, `const res = { write: write }`): of its own
/// functions, those whoever calls the factory reaches as methods.
fn hands_out<'s>(factory: Node, bytes: &'s [u8]) -> rustc_hash::FxHashSet<&'s str> {
    let mut names = rustc_hash::FxHashSet::default();
    let Some(body) = factory.child_by_field_name("body") else { return names };
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        let value = match node.kind() {
            "shorthand_property_identifier" => Some(node),
            "pair" => node.child_by_field_name("value").filter(|v| v.kind() == "identifier"),
            _ => None,
        };
        names.extend(value.and_then(|v| std::str::from_utf8(&bytes[v.byte_range()]).ok()));
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    names
}

/// If `name` declares a type parameter (`T` of TypeScript's `<T extends X = Y>`
/// or Rust's `<T: Bound>`), the byte range of the declaration that takes it.
fn type_parameter_scope(name: Node) -> Option<(usize, usize)> {
    let parent = name.parent()?;
    let list = match parent.kind() {
        "type_parameters" => parent,
        "type_parameter" | "constrained_type_parameter" | "optional_type_parameter"
            if ["name", "left"]
                .iter()
                .any(|f| parent.child_by_field_name(f).is_some_and(|n| n.id() == name.id())) =>
        {
            parent.parent().filter(|p| p.kind() == "type_parameters")?
        }
        _ => return None,
    };
    let declaration = list.parent()?;
    Some((declaration.start_byte(), declaration.end_byte()))
}

/// Whether the method at `node` sits in an object literal passed to a call.
fn in_call_arguments(node: Node) -> bool {
    let object = node.parent().filter(|p| p.kind() == "object");
    object.and_then(|o| o.parent()).is_some_and(|p| p.kind() == "arguments")
}

/// The property a descriptor's accessor is for, and its key as written:
/// `server` for the `get ()` of `Object.defineProperties(Reply.prototype, {
/// server: { get () {…} } })`, `kRouteContext` (`[kRouteContext]`) for a computed key.
fn descriptor_property(method: Node, bytes: &[u8]) -> Option<(String, String)> {
    let object = method.parent().filter(|p| p.kind() == "object")?;
    let pair = object.parent().filter(|p| p.kind() == "pair")?;
    let key = pair.child_by_field_name("key")?;
    let written = key.utf8_text(bytes).ok()?;
    let name = written.trim_matches(['\'', '"', '`', '[', ']']).trim();
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let written = if key.kind() == "computed_property_name" { written } else { name };
    plain.then(|| (name.to_string(), written.to_string()))
}

/// The type a method use on `object` names (`ProgressBar` of Rust's
/// `ProgressBar::new()`, `crate::bar::ProgressBar::new()` or `Bar::<T>::new()`,
/// Python's `Path` of `Path.home()`, JavaScript's `AxiosHeaders` of
/// `AxiosHeaders.from()`), if `object` may be one by its name; not `Self`,
/// nor `<T as Trait>`, nor a value or a constant (`JSON`).
fn type_called_on(lang: Lang, object: &str) -> Option<&str> {
    let name = match lang {
        Lang::Rust => object.rsplit("::").find(|s| !s.starts_with('<'))?.split('<').next()?.trim(),
        _ => object,
    };
    let identifier = name.chars().all(|c| c.is_alphanumeric() || c == '_');
    let type_like = name.starts_with(char::is_uppercase) && name.chars().any(char::is_lowercase);
    (identifier && type_like && name != "Self").then_some(name)
}

/// How a use of `name` on `object` names it. A module's function or type is
/// no method: `np.linalg.norm()` after `import numpy as np`, `ns.f()` after
/// `import * as ns`, Rust's `crate::util::f()`. A type's function is one:
/// `Path.home()` in Python, `Self::new()`, `Vec::<T>::new()` and
/// `<T as Trait>::f()` in Rust, unless its name is capitalized (`Outer.Inner()`,
/// an enum's variant). Anything else (`app.f()`, `React.f()`) may be either.
fn qualified(lang: Lang, object: &str, name: &str, modules: &rustc_hash::FxHashSet<&str>) -> Use {
    let capitalized = |s: &str| s.starts_with(char::is_uppercase);
    let (on_module, on_type) = if lang == Lang::Rust {
        // The path's last segment without its generics: `a::b::<T>` → `b`; none in `<T as Tr>`.
        match object.rsplit("::").find(|s| !s.starts_with('<')).and_then(|s| s.trim().chars().next()) {
            None => (false, true),
            Some(c) => (c.is_lowercase() || c == '_', c.is_uppercase()),
        }
    } else {
        let mut segments = object.split('.');
        let dotted =
            segments.clone().all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
        // A capitalized import (`import AxiosError from …`) is a class as often as a
        // namespace: its `AxiosError.from()` may be a static method.
        let class_like = lang.is_javascript_like() && type_called_on(lang, object).is_some();
        let on_module = dotted && !class_like && segments.next().is_some_and(|head| modules.contains(head));
        // A class, in Python only: JavaScript's `React.f()` or `Object.keys()` is as often an object's.
        let on_type = lang == Lang::Python
            && dotted
            && !object.contains('.')
            && capitalized(object)
            && object.chars().any(char::is_lowercase);
        (on_module, on_type)
    };
    if on_module {
        Use::Bare
    } else if on_type && !capitalized(name) {
        Use::Method
    } else {
        Use::Member
    }
}

/// Whether a TypeScript member at `node` belongs to an object type written
/// inline in an annotation (`(value: { entries(): Iterable<T> }) =>`): the
/// shape of one parameter or result, nothing a reader looks up by name. An
/// interface's, a type alias's or a class's members are definitions.
fn in_inline_type(node: Node) -> bool {
    for ancestor in std::iter::successors(node.parent(), |n| n.parent()) {
        match ancestor.kind() {
            "interface_declaration" | "type_alias_declaration" | "class_body" | "program" => return false,
            "type_annotation" | "type_predicate_annotation" | "formal_parameters" | "type_arguments" => {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Whether `node` is under `if __name__ == "__main__":`: a demo of the module
/// (rich's `class Foo` in abc.py, `def divide()` in logging.py), none of its API.
fn under_main_guard(node: Node, bytes: &[u8]) -> bool {
    std::iter::successors(node.parent(), |n| n.parent()).any(|n| {
        n.kind() == "if_statement"
            && n.child_by_field_name("condition").and_then(|c| c.utf8_text(bytes).ok()).is_some_and(|c| {
                let c: String = c.chars().filter(|ch| !ch.is_whitespace()).collect();
                c == "__name__=='__main__'" || c == "__name__==\"__main__\""
            })
    })
}

/// Whether `name`, a JavaScript name bound to another's value (`const produce =
/// immer.produce`), is exported as it is bound (`export const produce: IProduce =
/// immer.produce`): the module's own name for it, what its users import and call,
/// not an alias whose uses belong to the original. One bound to what another
/// module exports (`export const f = require('m').f`) stays an import.
fn exports_an_alias(name: Node) -> bool {
    let Some(declarator) = name.parent().filter(|p| p.kind() == "variable_declarator") else { return false };
    let exported =
        declarator.parent().and_then(|d| d.parent()).is_some_and(|s| s.kind() == "export_statement");
    let value = declarator.child_by_field_name("value");
    let from_module =
        value.and_then(|v| v.child_by_field_name("object")).is_some_and(|o| o.kind() == "call_expression");
    exported && value.is_some_and(|v| v.kind() == "member_expression") && !from_module
}

/// Whether the definition at `node` is a callback's, or is a callback: made in
/// a function passed somewhere (`describe('x', () => { function helper … })`)
/// or in a named function passed as an argument (axios's
/// `toFlatObject(utils, {}, null, function filter(prop) {…})`, a name nothing
/// else can call).
fn in_callback(node: Node) -> bool {
    let mut at = Some(node);
    while let Some(n) = at {
        let passed = || n.parent().is_some_and(|p| p.kind() == "arguments");
        if matches!(n.kind(), "arrow_function" | "function_expression" | "function")
            && (n.child_by_field_name("name").is_none() || passed())
        {
            let mut outer = n.parent();
            while let Some(p) = outer.filter(|p| p.kind() == "parenthesized_expression") {
                outer = p.parent();
            }
            // `(function () { … })()`, `(…).call(this)`.
            let invoked = outer.is_some_and(|p| {
                let call = if p.kind() == "member_expression" { p.parent() } else { Some(p) };
                call.is_some_and(|c| {
                    c.kind() == "call_expression"
                        && c.child_by_field_name("function")
                            .is_some_and(|f| f.byte_range().contains(&n.start_byte()))
                })
            });
            let named_by = outer.is_some_and(|p| {
                matches!(p.kind(), "variable_declarator" | "pair" | "assignment_expression")
            });
            if !invoked && !named_by {
                return true;
            }
        }
        at = n.parent();
    }
    false
}

/// How a use names what it references: see [`Ref`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    Bare,
    Method,
    /// Either a method or not.
    Member,
}
