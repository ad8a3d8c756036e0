//! Outlines: what the folder context files show of each source file's code.
//!
//! ctxkeep-core owns the store and the context files but cannot parse or rank;
//! this is where the map hands over what it knows. Whenever it ranks the
//! whole repository with no focus (`ctx map`, the map of `ctx init` and
//! `ctx update`, and [`build`] before every `ctx build`), each file's outline
//! is stored: its most important definitions with one-line signatures, its
//! PageRank and how many other files use its names.
//!
//! What a file passes on of other modules (a package's `__init__.py`
//! importing its modules' names, `pub use`, `export … from`) is shown as
//! those lines, an entry file's before its own definitions.
//!
//! A file's definitions are ordered: public before private, then those
//! other files reference first, top level before members, then by how many
//! files reference them, then by graph score, then by line. Impl
//! blocks, functions inside functions, repeated overloads and, in the code itself (not its tests), test
//! functions and test modules are left out.

use ctxkeep_core::paths::PathRole;
use ctxkeep_core::{BuildOptions, BuildReport, Outline, OutlineDef, Workspace};
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::error::Result;
use crate::exports::{self, JsModule, is_declaration};
use crate::graph::{self, Focus, Graph, Ranking};
use crate::index::{self, IndexedFile};
use crate::tags::{Def, Kind};

/// Most definitions stored per file (the deep tier's share).
pub const MAX_DEFS: usize = 24;
/// Longest one-line signature kept, in characters.
const MAX_SIGNATURE_CHARS: usize = 160;
/// A name defined in more files than this tells nothing of who uses whom.
const MAX_DEFINERS: usize = 3;
/// How many lines make a constant data ([`Candidate::data`]).
const DATA_LINES: u32 = 10;

/// Whether a constant holds a file's bytes or text (Rust's `include_bytes!`,
/// `include_str!`: mdBook's `ELASTICLUNR_JS`).
fn embeds_a_file(def: &Def) -> bool {
    ["include_bytes!", "include_str!"].iter().any(|embed| def.signature.contains(embed))
}

/// Bring every file's outline up to date, then build the context files:
/// what `ctx build` runs. Indexing reads the store as the last scan left it
/// (no scan: a build shows what was scanned) and parses only new contents.
pub fn build(ws: &mut Workspace, options: &BuildOptions) -> Result<BuildReport> {
    let (files, _) = index::index_scanned(ws, None)?;
    index::keep_for_hooks(ws, &files);
    let inputs = Inputs::of(ws, &files)?;
    if !inputs.stored(ws) {
        // An edit inside a body leaves the graph, so the ranking, as it was.
        let digest = graph::digest(&files);
        let ranking = Ranking::kept(ws, &digest, &files).unwrap_or_else(|| {
            let ranking =
                Graph::cached_with_digest(ws, &files, &Default::default(), digest).rank(&Focus::default());
            ranking.keep(ws, &digest);
            ranking
        });
        inputs.save(ws, &files, &digest, &ranking)?;
    }
    Ok(ws.build(options)?)
}

/// Store the outlines of `graph`'s files, `ranking` being its ranking with
/// no focus, unless the files' contents are those they were last made from.
/// Outlines are derived data: a store that cannot be written keeps the ones it has.
pub fn save(ws: &mut Workspace, graph: &Graph, ranking: &Ranking) -> Result<()> {
    let inputs = Inputs::of(ws, graph.files())?;
    if inputs.stored(ws) { Ok(()) } else { inputs.save(ws, graph.files(), &graph.digest(), ranking) }
}

/// What outlines follow from: every file's path and content (its tags, and
/// so the unfocused ranking, follow from those), under this extractor and
/// this way of making them.
struct Inputs {
    hashes: HashMap<String, [u8; 32]>,
    digest: String,
}

/// How outlines are made: a change of what they pick or how they order it must
/// change it, or a store keeps the outlines of the old way until a file changes.
const VERSION: u32 = 25;

/// Where the digest of the inputs of the stored outlines is kept ([`Workspace::derived`]).
const INPUTS_KEY: &str = "outline-inputs";
/// Where the digest of the graph the stored outlines were ranked on is kept:
/// while it holds, only the outlines of files edited since need making again.
const GRAPH_KEY: &str = "outline-graph";

impl Inputs {
    fn of(ws: &Workspace, files: &[IndexedFile]) -> Result<Inputs> {
        let hashes: HashMap<String, [u8; 32]> =
            ws.source_files()?.into_iter().map(|f| (f.path, f.hash)).collect();
        let mut hasher = blake3::Hasher::new();
        hasher.update(&crate::tags::TAGS_VERSION.to_le_bytes()).update(&VERSION.to_le_bytes());
        hasher.update(&ctxkeep_core::paths::ROLE_RULES_VERSION.to_le_bytes());
        for file in files {
            hasher.update(file.path.as_bytes()).update(b"\0");
            hasher.update(hashes.get(&file.path).map_or(&[0; 32], |h| h));
        }
        Ok(Inputs { hashes, digest: hasher.finalize().to_hex().to_string() })
    }

    /// Whether the stored outlines were made from these inputs.
    fn stored(&self, ws: &Workspace) -> bool {
        ws.derived(INPUTS_KEY).ok().flatten().as_deref() == Some(self.digest.as_str())
    }

    /// Store the outlines of `files`, whose graph's digest is `graph` and ranking with no focus `ranking`.
    fn save(
        &self,
        ws: &mut Workspace,
        files: &[IndexedFile],
        graph: &[u8; 32],
        ranking: &Ranking,
    ) -> Result<()> {
        let mut hasher = blake3::Hasher::new();
        hasher.update(&VERSION.to_le_bytes()).update(graph);
        let graph_digest = hasher.finalize().to_hex().to_string();
        let saved = if ws.derived(GRAPH_KEY).ok().flatten().as_deref() == Some(graph_digest.as_str()) {
            // The same graph, so the same ranking: every outline is the one stored
            // but those of the files edited since (an edit inside a body, a comment).
            let stored = ws.outline_hashes()?;
            let edited: Vec<bool> =
                files.iter().map(|f| stored.get(&f.path) != self.hashes.get(&f.path)).collect();
            ws.update_outlines(&outlines(files, ranking, &self.hashes, |i| edited[i]))
        } else {
            ws.save_outlines(&outlines(files, ranking, &self.hashes, |_| true)).map(drop)
        };
        match saved {
            Ok(()) => {
                // Remembering the inputs only saves the next run some work.
                let _ = ws.save_derived(INPUTS_KEY, &self.digest);
                let _ = ws.save_derived(GRAPH_KEY, &graph_digest);
                Ok(())
            }
            Err(ctxkeep_core::Error::ReadOnly { .. }) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }
}

/// The outline of every file of `files` the store knows (`hashes`: its
/// content hash by path) and `wanted` takes (by index).
fn outlines(
    files: &[IndexedFile],
    ranking: &Ranking,
    hashes: &HashMap<String, [u8; 32]>,
    wanted: impl Fn(usize) -> bool + Sync,
) -> Vec<Outline> {
    let picked: Vec<usize> = (0..files.len()).filter(|&i| wanted(i)).collect();
    // Only the names the picked files define need their definers and users
    // told: after an edit, a handful of names instead of every use in the tree.
    let names: Option<HashSet<&str>> = (picked.len() < files.len()).then(|| {
        let passed_on = |i: usize| exports::reexports(&files[i]).into_iter().flat_map(|r| r.names);
        picked.iter().flat_map(|&i| files[i].defined_names().chain(passed_on(i))).collect()
    });
    let told = |name: &str| names.as_ref().is_none_or(|names| names.contains(name));
    // name -> the code's files defining it (a test's or an example's
    // same-name definition does not make the code's ambiguous), and name ->
    // files using it.
    // Members of a type (a method, an impl's `type Value`) apart: a bare `Value` is
    // none of theirs, so forty visitors' `type Value` leave `enum Value` specific.
    let mut definers: HashMap<&str, HashSet<usize>> = HashMap::default();
    let mut member_definers: HashMap<&str, HashSet<usize>> = HashMap::default();
    // Per name, the files using it as a function, type or constant would be
    // used (`f()`, `import f`, `m.f()`), and those using it as a method would
    // (`x.f()`, `self.f()`): Rust's `path.join()` is no use of `fn join`.
    let mut users: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut method_users: HashMap<&str, Vec<usize>> = HashMap::default();
    // And those naming it bare (`import { f }`, `f()`, `ns.f()` on a namespace import),
    // the only way to use what an ES module exports: `xs.some()` is no use of `export function some`.
    let mut bare_users: HashMap<&str, Vec<usize>> = HashMap::default();
    // A file importing the name from outside the repository (`from pathlib import Path`)
    // uses that, not a definition here (httpie's `nested_json/tokens.py: class Path`).
    let modules = graph::imports::Modules::new(files);
    for (i, file) in files.iter().enumerate() {
        let in_code = PathRole::of(&file.path) == PathRole::Source;
        let defs = &file.tags.defs;
        for def in defs.iter().filter(|d| d.kind.defines_name() && in_code && told(&d.name)) {
            let map = if def.is_member(defs) { &mut member_definers } else { &mut definers };
            map.entry(def.name.as_str()).or_default().insert(i);
        }
        let outside = |r: &&crate::tags::Ref| r.from.as_deref().is_some_and(|m| modules.is_external(i, m));
        for r in file.tags.refs.iter().filter(|r| told(&r.name) && !outside(r)) {
            if r.count > r.method {
                users.entry(r.name.as_str()).or_default().push(i);
            }
            if r.count > r.bare {
                method_users.entry(r.name.as_str()).or_default().push(i);
            }
            if r.bare > 0 {
                bare_users.entry(r.name.as_str()).or_default().push(i);
            }
        }
    }
    // The files other than `i` that use `def` as what it is, when few files define its
    // name, or few of them are named after it (`context.ts`'s `class Context`, not a
    // router's `interface Context`): a file named for a name is where it is looked for.
    // A module's file is named for it, or its folder is (minijinja's `value/mod.rs` and its `Value`).
    let namesake = |file: usize, name: &str| {
        let mut parts = files[file].path.rsplit('/');
        let stem = parts.next().and_then(|n| n.split('.').next()).unwrap_or("");
        let stem = match stem {
            "mod" | "__init__" | "index" | "lib" => parts.next().unwrap_or(stem),
            _ => stem,
        };
        ctxkeep_core::paths::same_name(stem, name)
    };
    let users_of = |i: usize, def: &Def, exports: &Exports| {
        let name = def.name.as_str();
        let definers = if def.is_member(&files[i].tags.defs) { &member_definers } else { &definers };
        let specific = definers.get(name).is_none_or(|d| {
            d.len() <= MAX_DEFINERS
                || namesake(i, name) && d.iter().filter(|&&f| namesake(f, name)).count() <= MAX_DEFINERS
        });
        let users = match def.kind {
            Kind::Method => &method_users,
            _ if def.parent.is_none() && exports.js.is_some() && is_declaration(def) => &bare_users,
            _ => &users,
        };
        users
            .get(def.name.as_str())
            .filter(|_| specific)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |&u| u != i)
    };
    // Each file's on the pool's threads: ~45 ms on one core for 2,500 files.
    picked
        .into_par_iter()
        .map(|i| (i, &files[i]))
        .filter_map(|(i, file)| {
            let hash = *hashes.get(&file.path)?;
            let defs = &file.tags.defs;
            let exports = Exports::of(file);
            let in_code = PathRole::of(&file.path) == PathRole::Source;
            let mut referenced_by: HashSet<usize> = HashSet::default();
            let mut picked: Vec<Candidate> = Vec::new();
            let mut seen: HashSet<(Option<u32>, &str, bool)> = HashSet::default();
            for (d, def) in defs.iter().enumerate() {
                // A function's inner functions are its own business.
                let nested = def.is_local(defs);
                // A trait impl's associated types and constants (`type Error = Infallible;`)
                // are its interface's, never what a reader looks for in the file.
                let fills_in = def.implements_trait(defs);
                let associated = fills_in && matches!(def.kind, Kind::Type | Kind::Constant);
                // A module's metadata (`__version__ = "0.0.39"`, `__all__ = […]`) is no code of it.
                let metadata = def.kind == Kind::Constant && is_dunder(&def.name);
                if !def.kind.defines_name()
                    || nested
                    || associated
                    || metadata
                    || (in_code && def.is_test(defs))
                {
                    continue;
                }
                // Another file's use of a name that file cannot see is of another's.
                let visible = exports.visible_elsewhere(defs, def);
                let users = if visible { users_of(i, def, &exports).collect() } else { Vec::new() };
                referenced_by.extend(&users);
                let users = users.len();
                // One entry per overload set, and per trait method however many
                // types of the file implement it (`fn fmt` once), apart from a
                // top-level namesake (serde_json's `fn from_str` beside `impl FromStr`'s).
                // In tests, a helper class each test class declares again (marshmallow's
                // `class MySchema(Schema)` in three of them) is one entry.
                let set = if fills_in || (!in_code && def.kind == Kind::Class) {
                    Some(u32::MAX)
                } else {
                    def.parent
                };
                if seen.insert((set, def.name.as_str(), def.is_setter())) {
                    let score = ranking.def_rank.get(i).and_then(|s| s.get(d)).copied().unwrap_or(0.0);
                    let public = exports.is_public(defs, def);
                    let lines = def.end_line.saturating_sub(def.line) + 1;
                    picked.push(Candidate {
                        own: !fills_in,
                        current: !def.deprecated,
                        public,
                        named_anew: def.alias_of(defs).is_none(),
                        code: def.kind != Kind::Constant,
                        data: def.kind == Kind::Constant
                            && users == 0
                            && (lines >= DATA_LINES || embeds_a_file(def)),
                        top: def.parent.is_none(),
                        users,
                        score,
                        d,
                    });
                }
            }
            // The file's own items before what it fills in of a trait, and before data; public, used and top
            // level first (a private name "used" elsewhere is mostly another's: `.find()`);
            // of what no other file uses, the code before its constants (a middleware's
            // methods before the `STYLES` and `JS` of its error page); then by how many
            // files use it, where the graph's score would favour long names
            // (`get_flashed_messages` over `url_for`).
            picked.sort_by(|a, b| {
                let code_or_used = |c: &Candidate| c.code || c.users > 0;
                (
                    b.own,
                    !b.data,
                    b.current,
                    b.public,
                    b.named_anew,
                    b.users > 0,
                    code_or_used(b),
                    b.top,
                    b.users,
                )
                    .cmp(&(
                        a.own,
                        !a.data,
                        a.current,
                        a.public,
                        a.named_anew,
                        a.users > 0,
                        code_or_used(a),
                        a.top,
                        a.users,
                    ))
                    .then(b.score.total_cmp(&a.score))
                    .then(a.d.cmp(&b.d))
            });
            picked.truncate(MAX_DEFS);
            classes_before_their_members(&mut picked, defs);
            let mut defs: Vec<OutlineDef> =
                picked.into_iter().map(|c| outline_def(file, &defs[c.d], c.users)).collect();
            // What the file passes on of other modules: an entry file's are what a reader
            // meets the package through (`from .schema import Schema` in `__init__.py`),
            // before its own; another's follow its own.
            let used_elsewhere =
                |name: &str| users.get(name).map_or(0, |u| u.iter().filter(|&&u| u != i).count());
            let passed_on = reexport_lines(file, used_elsewhere);
            if is_entry_file(&file.path) {
                defs.splice(0..0, passed_on);
            } else {
                defs.extend(passed_on);
            }
            defs.truncate(MAX_DEFS);
            Some(Outline {
                path: file.path.clone(),
                hash,
                rank: significant(ranking.file_rank.get(i).copied().unwrap_or(0.0)),
                referenced_by: referenced_by.len() as u32,
                defs,
            })
        })
        .collect()
}

/// A package's or module's entry file: `__init__.py`, `lib.rs`, `mod.rs`, `index.ts`.
fn is_entry_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name.split_once('.'), Some(("__init__" | "lib" | "mod" | "index", _)))
}

/// The lines by which `file` passes on other modules' names ([`exports::reexports`]),
/// as outline entries of kind `reexport`, the most used first (`users`: how many
/// other files use a name): each line names its most used names first, as many
/// as [`MAX_SIGNATURE_CHARS`] holds, and counts the rest.
fn reexport_lines(file: &IndexedFile, users: impl Fn(&str) -> usize) -> Vec<OutlineDef> {
    let mut lines: Vec<(usize, OutlineDef)> = exports::reexports(file)
        .into_iter()
        .map(|reexport| {
            let mut names = reexport.names.clone();
            names.sort_by_key(|name| std::cmp::Reverse(users(name)));
            let most = names.first().map_or(0, |name| users(name));
            let mut shown = names.len();
            let mut signature = reexport.line(&file.lang, &names, 0);
            while shown > 1 && signature.chars().count() > MAX_SIGNATURE_CHARS {
                shown -= 1;
                signature = reexport.line(&file.lang, &names[..shown], names.len() - shown);
            }
            let def = OutlineDef {
                kind: "reexport".to_string(),
                name: reexport.from.unwrap_or(names[0]).to_string(),
                signature,
                line: 0,
                parent: None,
                users: most as u32,
            };
            (most, def)
        })
        .collect();
    // The most used first; among equals, as sorted by module.
    lines.sort_by_key(|(most, _)| std::cmp::Reverse(*most));
    lines.into_iter().map(|(_, def)| def).collect()
}

/// A class (or impl, trait, …) the outline shows goes just before the first
/// of its members it shows: `callback_notify` "in `UvicornWorker`" read
/// before `class UvicornWorker` otherwise, where more files use the method.
fn classes_before_their_members(picked: &mut Vec<Candidate>, defs: &[Def]) {
    let mut at = 0;
    while at < picked.len() {
        let parent = defs[picked[at].d].parent.map(|p| p as usize);
        let later = parent.and_then(|p| picked[at + 1..].iter().position(|c| c.d == p)).map(|k| at + 1 + k);
        match later {
            Some(later) => {
                let class = picked.remove(later);
                picked.insert(at, class);
            }
            None => at += 1,
        }
    }
}

/// A definition that may make its file's outline.
struct Candidate {
    /// Not an item of a trait impl ([`Def::implements_trait`]).
    own: bool,
    /// Not deprecated: what replaces a deprecated definition comes first.
    current: bool,
    /// Not another name for a definition of the file ([`Def::alias_of`]): what
    /// it names comes first.
    named_anew: bool,
    public: bool,
    /// Not a constant: the code before its data.
    code: bool,
    /// A constant of [`DATA_LINES`] lines or more, or one that embeds a file
    /// (`include_bytes!`), that no other file uses: an SVG, a stylesheet, a
    /// bundled script kept in the code, never what a reader of the file looks
    /// for, public or not.
    data: bool,
    top: bool,
    /// Other files using it.
    users: usize,
    /// Its graph score.
    score: f64,
    /// Its index among the file's definitions.
    d: usize,
}

/// A rank to three significant digits. Any edit moves every file's rank a
/// little, and a stored outline whose rank moved in the fifth digit need not
/// be written again: nothing that orders by rank tells such ranks apart.
fn significant(rank: f64) -> f64 {
    if !(rank.is_finite() && rank > 0.0) {
        return 0.0;
    }
    let scale = 10f64.powi(2 - rank.log10().floor() as i32);
    (rank * scale).round() / scale
}

fn outline_def(file: &IndexedFile, def: &Def, users: usize) -> OutlineDef {
    let defs = &file.tags.defs;
    // The map's kinds are lowercase words in JSON (`class`, `function`).
    let kind = serde_json::to_value(def.kind).ok().and_then(|v| v.as_str().map(str::to_string));
    OutlineDef {
        kind: kind.unwrap_or_default(),
        name: def.name.clone(),
        signature: one_line(&def.signature) + def.deprecation_note(&file.lang),
        line: def.line,
        parent: def.parent(defs).map(parent_label),
        users: users as u32,
    }
}

/// How a member's outline entry names what it sits in: its class, its type
/// (`Response`, not `super::response::Response`), or a trait impl as written
/// without its bounds (`impl IntoUrlSealed for Url`, `impl<S> Resolve for S`):
/// "in `Url`" had said `as_str` was `Url`'s own method, "in `S`" nothing.
fn parent_label(parent: &Def) -> String {
    if parent.kind != Kind::Impl {
        return parent.name.clone();
    }
    let line = one_line(&parent.signature);
    let line = line.split(" where ").next().unwrap_or(&line).trim();
    match line.contains(" for ") {
        true => line.to_string(),
        false => {
            let name = parent.name.split('<').next().unwrap_or(&parent.name);
            name.rsplit("::").next().unwrap_or(name).trim().to_string()
        }
    }
}

/// Whether `name` is a `__dunder__` name.
pub(crate) fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// A signature of any number of lines on one: whitespace collapsed, no
/// space inside brackets, no `:` or `{` that opens the body, cut at
/// 160 characters.
pub fn one_line(signature: &str) -> String {
    let mut line = signature.split_whitespace().collect::<Vec<_>>().join(" ");
    for (from, to) in
        // `, )` was a line break; `,)` as written may be a tuple of one (`("text/event-stream",)`).
        [("( ", "("), ("[ ", "["), (", )", ")"), (" )", ")"), (", ]", "]"), (" ]", "]")]
    {
        line = line.replace(from, to);
    }
    // A stub's body (`-> T: ...`, an overload) goes with its colon, an empty one (`{}`) with
    // it; an empty value (`_registry = {}`) stays.
    let empty_body = line.strip_suffix("{}").filter(|head| !head.trim_end().ends_with('='));
    let line = line.strip_suffix(": ...").or(empty_body).unwrap_or(&line);
    let line = line.trim_end().trim_end_matches(['{', ':']).trim_end();
    crate::signature::cut(line, MAX_SIGNATURE_CHARS)
}

/// What a file lets other files name, as its language says.
struct Exports<'f> {
    lang: &'f str,
    /// A JavaScript or TypeScript module's exports ([`JsModule`]): its other
    /// top-level declarations are its own. None for a script, whose
    /// top-level names may all be used.
    js: Option<JsModule<'f>>,
}

impl<'f> Exports<'f> {
    fn of(file: &'f IndexedFile) -> Exports<'f> {
        Exports { lang: file.lang.as_str(), js: JsModule::of(file) }
    }

    /// Whether `def` is part of its file's public face (a member of a private
    /// class is private).
    fn is_public(&self, defs: &[Def], def: &Def) -> bool {
        // An impl block names no visibility: its methods' own `pub` decides, and its
        // type's where the file defines it (`impl SmallStr` of a `pub(crate) struct`).
        let impl_type_public = |p: &Def| {
            let name = p.name.split('<').next().unwrap_or(&p.name).trim();
            let of_type = |d: &&Def| {
                d.name == name && matches!(d.kind, Kind::Struct | Kind::Enum) && d.parent.is_none()
            };
            defs.iter().find(of_type).is_none_or(|t| self.is_public_alone(defs, t))
        };
        self.is_public_alone(defs, def)
            && def.parent(defs).is_none_or(|p| {
                if p.kind == Kind::Impl { impl_type_public(p) } else { self.is_public(defs, p) }
            })
    }

    /// Whether other files can name `def` at all: not a Rust item without
    /// `pub` (or `pub(crate)`, `pub(super)`, a trait's items), which its module
    /// alone sees (a child module aside), nor what a JavaScript module keeps to itself.
    fn visible_elsewhere(&self, defs: &[Def], def: &Def) -> bool {
        let top = std::iter::successors(Some(def), |d| d.parent(defs)).last().unwrap_or(def);
        match self.lang {
            "rust" => {
                let signature = def.signature.trim_start();
                let marks = signature.strip_prefix("#[macro_export] ").unwrap_or(signature);
                let marks = marks.strip_prefix("#[doc(hidden)] ").unwrap_or(marks);
                marks.starts_with("pub")
                    || signature.starts_with("#[macro_export]")
                    || self.is_public_alone(defs, def)
            }
            _ => self.js.as_ref().is_none_or(|js| !js.hides(top)),
        }
    }

    fn is_public_alone(&self, defs: &[Def], def: &Def) -> bool {
        let name = def.name.as_str();
        if crate::tags::private_by_name(name) {
            return false;
        }
        let signature = def.signature.trim_start();
        match self.lang {
            // Trait items and the methods of trait impls are as public as the trait;
            // `pub(crate)` is not public.
            "rust" => {
                def.is_rust_public()
                    || (def
                        .parent(defs)
                        .is_some_and(|p| p.kind == Kind::Trait || p.signature.contains(" for "))
                        && !def.is_doc_hidden())
            }
            "typescript" | "tsx" | "javascript" => {
                let private = signature.starts_with("private ") || signature.starts_with("protected ");
                let exported = def.parent.is_some() || self.js.as_ref().is_none_or(|js| !js.hides(def));
                !private && exported
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// The outlines of all `files`, ranked without a focus.
    fn outline_all(files: &[IndexedFile]) -> Vec<Outline> {
        let hashes = files.iter().map(|f| (f.path.clone(), [0; 32])).collect();
        outlines(files, &crate::graph::rank(files, &Focus::default()), &hashes, |_| true)
    }

    #[test]
    fn a_stored_rank_keeps_three_significant_digits() {
        assert_eq!(significant(0.000123456), 0.000123);
        assert_eq!(significant(0.0456789), 0.0457);
        assert_eq!(significant(0.5), 0.5);
        assert_eq!(significant(0.0), 0.0);
        assert_eq!(significant(f64::NAN), 0.0);
        // A move in the fifth digit stores the same rank; one in the third does not.
        assert_eq!(significant(0.00123451), significant(0.00123449));
        assert!(significant(0.00124) > significant(0.00123));
    }

    fn names(outline: &Outline) -> Vec<&str> {
        outline.defs.iter().map(|d| d.name.as_str()).collect()
    }

    #[test]
    fn a_setter_is_listed_beside_its_getter() {
        let source = "class Response {\n  get body () {\n    return this._body\n  }\n  set body (val) {\n    this._body = val\n  }\n}\nmodule.exports = Response\n";
        let files = [IndexedFile::parsed("lib/response.js", Lang::JavaScript, source)];
        let outline = &outline_all(&files)[0];
        let signatures: Vec<&str> = outline.defs.iter().map(|d| d.signature.as_str()).collect();
        assert!(
            signatures.contains(&"get body ()") && signatures.contains(&"set body (val)"),
            "{signatures:?}"
        );
    }

    #[test]
    fn a_member_is_in_its_type_or_its_trait_impl_as_written() {
        let source = "pub struct Url;\nimpl super::url::Url {\n    pub fn parse(s: &str) -> Url { Url }\n}\n\
                      impl IntoUrlSealed for Url {\n    fn as_str(&self) -> &str { \"\" }\n}\n\
                      impl<S> Resolve for S where S: Service<Name> {\n    fn resolve(&mut self) {}\n}\n";
        let files = [IndexedFile::parsed("src/into_url.rs", Lang::Rust, source)];
        let outline = &outline_all(&files)[0];
        let parent = |name: &str| outline.defs.iter().find(|d| d.name == name).unwrap().parent.clone();
        assert_eq!(parent("parse").as_deref(), Some("Url"));
        assert_eq!(parent("as_str").as_deref(), Some("impl IntoUrlSealed for Url"));
        assert_eq!(parent("resolve").as_deref(), Some("impl<S> Resolve for S"));
    }

    #[test]
    fn a_name_imported_from_outside_the_repository_is_no_use_of_its_look_alike() {
        // httpie's `nested_json/tokens.py: class Path`, credited with every `from pathlib import Path`.
        let files = [
            IndexedFile::parsed("pkg/tokens.py", Lang::Python, "class Path:\n    pass\n"),
            IndexedFile::parsed("pkg/a.py", Lang::Python, "from pathlib import Path\nPath('x')\n"),
            IndexedFile::parsed("pkg/b.py", Lang::Python, "from pathlib import Path\nPath('y')\n"),
            IndexedFile::parsed("pkg/parse.py", Lang::Python, "from .tokens import Path\nPath()\n"),
        ];
        let outlines = outline_all(&files);
        let tokens = outlines.iter().find(|o| o.path == "pkg/tokens.py").unwrap();
        assert_eq!((tokens.defs[0].users, tokens.referenced_by), (1, 1), "{tokens:?}");
    }

    #[test]
    fn an_alias_follows_what_it_names_however_used() {
        // marshmallow's fields.py: `Str = String` led the file's outline, `class Field` nowhere.
        let fields =
            "class Field:\n    pass\n\nclass String(Field):\n    pass\n\nStr = String\nMISSING = object()\n";
        let uses = "from fields import Str, MISSING\nStr()\nStr()\nx = MISSING\n";
        let files = [
            IndexedFile::parsed("pkg/fields.py", Lang::Python, fields),
            IndexedFile::parsed("pkg/a.py", Lang::Python, uses),
            IndexedFile::parsed("pkg/b.py", Lang::Python, uses),
        ];
        let outlines = outline_all(&files);
        let fields = outlines.iter().find(|o| o.path == "pkg/fields.py").unwrap();
        let names = names(fields);
        let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
        assert!(at("Str") > at("String") && at("Str") > at("Field"), "{names:?}");
        // A constant of its own is no alias.
        assert!(at("MISSING") < at("Str"), "{names:?}");
    }

    #[test]
    fn public_and_used_names_lead_and_no_tests_in_code() {
        let files = [
            IndexedFile::parsed(
                "src/pkg/core.rs",
                Lang::Rust,
                "fn helper() {}\npub fn alpha() {}\npub struct Pool;\nimpl Pool {\n    pub fn get(&self) {}\n}\n\
                 #[cfg(test)]\nmod tests {\n    #[test]\n    fn checks() {}\n}\n",
            ),
            IndexedFile::parsed(
                "src/pkg/app.py",
                Lang::Python,
                "import core\n__version__ = \"1.0\"\ndef test_x():\n    pass\ndef _hidden():\n    pass\nclass App:\n    def run(self,\n            x):\n        core.Pool()\n",
            ),
            IndexedFile::parsed("tests/test_app.py", Lang::Python, "def test_app():\n    App().run(1)\n"),
            // Not core.rs's private `helper`, which no other file can see.
            IndexedFile::parsed("src/pkg/other.rs", Lang::Rust, "pub fn other(x: X) {\n    x.helper();\n}\n"),
        ];
        let outlines = outline_all(&files);
        let by_path = |p: &str| outlines.iter().find(|o| o.path == p).unwrap();
        let core = by_path("src/pkg/core.rs");
        // Public first, Pool used elsewhere before them; private last; the test module and its function never.
        assert_eq!(names(core), ["Pool", "alpha", "get", "helper"]);
        assert_eq!(core.referenced_by, 1);
        assert_eq!(core.defs[2].parent.as_deref(), Some("Pool"));
        let app = by_path("src/pkg/app.py");
        // Its metadata (`__version__`) is no code of it.
        assert_eq!(names(app), ["App", "run", "_hidden"]);
        assert_eq!(app.defs[1].signature, "def run(self, x)");
        assert_eq!(app.defs[0].kind, "class");
        // In a test file, its tests are what it holds.
        assert_eq!(names(by_path("tests/test_app.py")), ["test_app"]);
        // A helper class the test classes each declare again is listed once.
        let repeated = "class MySchema:\n    pass\n\nclass TestDefaults:\n    class MySchema:\n        pass\n\n    \
                        def test_a(self):\n        pass\n\nclass TestLoad:\n    class MySchema:\n        pass\n";
        let files = [IndexedFile::parsed("tests/test_schema.py", Lang::Python, repeated)];
        let outline = &outline_all(&files)[0];
        assert_eq!(outline.defs.iter().filter(|d| d.name == "MySchema").count(), 1, "{:?}", names(outline));
    }

    #[test]
    fn a_files_code_comes_before_the_constants_no_other_file_uses() {
        let errors = "STYLES = \"\"\"\np { color: red; }\n\"\"\"\nJS = \"\"\"\nfunction f() {}\n\"\"\"\n\
                      LIMIT = 10\n\nclass ServerErrorMiddleware:\n    def generate_html(self, exc):\n        \
                      return STYLES + JS\n\n    def error_response(self, request):\n        pass\n";
        let files = [
            IndexedFile::parsed("pkg/errors.py", Lang::Python, errors),
            IndexedFile::parsed(
                "pkg/app.py",
                Lang::Python,
                "from pkg.errors import ServerErrorMiddleware, LIMIT\nServerErrorMiddleware()\nLIMIT\n",
            ),
        ];
        let outlines = outline_all(&files);
        let errors = outlines.iter().find(|o| o.path == "pkg/errors.py").unwrap();
        // A constant another file uses is as good as code; those nobody else uses come last.
        assert_eq!(
            names(errors),
            ["ServerErrorMiddleware", "LIMIT", "generate_html", "error_response", "STYLES", "JS"]
        );
    }

    #[test]
    fn a_class_comes_just_before_the_first_of_its_members_shown() {
        // uvicorn's workers.py: other files call `callback_notify`, none names `UvicornWorker`.
        let workers = "class UvicornWorker(Worker):\n    def callback_notify(self):\n        pass\n\n    \
                       def run(self):\n        pass\n\ndef helper():\n    pass\n";
        let files = [
            IndexedFile::parsed("pkg/workers.py", Lang::Python, workers),
            IndexedFile::parsed(
                "pkg/a.py",
                Lang::Python,
                "def a(w):\n    w.callback_notify()\n    helper()\n",
            ),
            IndexedFile::parsed("pkg/b.py", Lang::Python, "def b(w):\n    w.callback_notify()\n"),
        ];
        let outlines = outline_all(&files);
        let workers = outlines.iter().find(|o| o.path == "pkg/workers.py").unwrap();
        let names = names(workers);
        let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
        assert_eq!(at("UvicornWorker") + 1, at("callback_notify"), "{names:?}");
        assert!(at("callback_notify") < at("run"), "{names:?}");
    }

    #[test]
    fn a_deprecated_definition_follows_and_says_so() {
        let helpers = "import warnings

def get_header(name):
    warnings.warn(\"use get_request_header\", \
                       DeprecationWarning, stacklevel=2)
    return name

def get_request_header(name):
    return name
";
        let files = [
            IndexedFile::parsed("pkg/helpers.py", Lang::Python, helpers),
            IndexedFile::parsed(
                "pkg/a.py",
                Lang::Python,
                "from pkg.helpers import get_header
get_header(1)
",
            ),
            IndexedFile::parsed(
                "pkg/b.py",
                Lang::Python,
                "from pkg.helpers import get_header
get_header(2)
",
            ),
        ];
        let outlines = outline_all(&files);
        let helpers = outlines.iter().find(|o| o.path == "pkg/helpers.py").unwrap();
        // Used by two files, yet after what replaces it, which nobody uses yet.
        assert_eq!(names(helpers), ["get_request_header", "get_header"]);
        assert_eq!(helpers.defs[1].signature, "def get_header(name)  # deprecated");
        assert_eq!(helpers.defs[0].signature, "def get_request_header(name)");
    }

    #[test]
    fn a_long_constant_no_other_file_uses_is_data_and_comes_after_private_code() {
        let svg: String = (0..12).map(|i| format!("<path d=\"M{i}\"/>\n")).collect();
        let text = format!(
            "ICON_NOTE = \"\"\"<svg>\n{svg}</svg>\"\"\"\nLIMIT = 10\n\n\
             class Admonition:\n    def render(self):\n        return _icon() + ICON_NOTE\n\n\
             def _icon():\n    return LIMIT\n"
        );
        let files = [IndexedFile::parsed("pkg/admonitions.py", Lang::Python, &text)];
        let outlines = outline_all(&files);
        // A public name, yet data: after the private helper; a one-line constant stays where it was.
        assert_eq!(names(&outlines[0]), ["Admonition", "render", "LIMIT", "_icon", "ICON_NOTE"]);
        // A file's bytes embedded in one line are data too.
        let rust = "pub static ELASTICLUNR_JS: &[u8] = include_bytes!(\"elasticlunr.min.js\");\n\
                    pub const MAX: usize = 3;\nfn build_index() -> usize { MAX }\n";
        let outlines = outline_all(&[IndexedFile::parsed("src/search.rs", Lang::Rust, rust)]);
        assert_eq!(names(&outlines[0]), ["MAX", "build_index", "ELASTICLUNR_JS"]);
    }

    #[test]
    fn an_es_module_s_own_names_are_private_and_used_by_no_other_file() {
        let files = [
            IndexedFile::parsed(
                "src/context.ts",
                Lang::TypeScript,
                "interface Set<E> { x: E }\nexport type Data = string\n\
                 @sealed\nexport class Context<E> {\n  get(key: string) {}\n  private hidden() {}\n}\n\
                 class Helper {}\nfunction log() {}\nexport { Helper }\n",
            ),
            IndexedFile::parsed(
                "src/hono.ts",
                Lang::TypeScript,
                "import { Context } from './context'\nexport class Hono { c = new Context() }\n",
            ),
            // Builtins by the same names: none of context.ts's, which keeps them to itself.
            IndexedFile::parsed(
                "src/utils.ts",
                Lang::TypeScript,
                "export const s = new Set()\nexport function f() { console.log(s); return [1].some(Boolean) }\n",
            ),
            IndexedFile::parsed("src/combine.ts", Lang::TypeScript, "export function some() {}\n"),
            IndexedFile::parsed(
                "src/legacy.js",
                Lang::JavaScript,
                "function helper() {}\nmodule.exports = { helper }\n",
            ),
            IndexedFile::parsed("src/types.ts", Lang::TypeScript, "class Thing {}\nexport default Thing\n"),
            // Three more `Context`s: too many to say whose a use is, but for the one named for it.
            IndexedFile::parsed(
                "src/router/node.ts",
                Lang::TypeScript,
                "export interface Context { i: number }\n",
            ),
            IndexedFile::parsed("src/jsx/render.ts", Lang::TypeScript, "export type Context = string\n"),
            IndexedFile::parsed(
                "src/helper/state.ts",
                Lang::TypeScript,
                "export interface Context { s: string }\n",
            ),
        ];
        let outlines = outline_all(&files);
        let by_path = |p: &str| outlines.iter().find(|o| o.path == p).unwrap();
        let context = by_path("src/context.ts");
        // Exported first, the one another file uses leading; then what the module keeps to
        // itself (its `Set`, a builtin's name, after `log`: a use of `Set` is mostly the builtin's).
        assert_eq!(names(context), ["Context", "Data", "Helper", "get", "log", "Set", "hidden"]);
        assert_eq!(context.referenced_by, 1, "only hono.ts, not utils.ts's `Set` or `console.log`");
        assert_eq!(by_path("src/router/node.ts").referenced_by, 0);
        assert_eq!(by_path("src/combine.ts").referenced_by, 0, "`[1].some()` calls no exported `some`");
        // A CommonJS module's face is what `module.exports` names.
        assert_eq!(names(by_path("src/legacy.js")), ["helper"]);
        assert_eq!(names(by_path("src/types.ts")), ["Thing"]);
    }

    #[test]
    fn a_file_s_own_items_come_before_what_it_implements_of_traits() {
        let files = [
            IndexedFile::parsed(
                "src/routing/not_found.rs",
                Lang::Rust,
                "pub(super) struct NotFound;\n\
                 impl<B> Service<Request<B>> for NotFound {\n    type Response = Response;\n    type Error = Infallible;\n    \
                 fn call(&mut self, req: Request<B>) -> Self::Future { todo!() }\n}\n\
                 impl fmt::Debug for NotFound {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n\
                 pub(super) struct Gone;\n\
                 impl fmt::Debug for Gone {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n\
                 impl Gone {\n    pub(super) fn at(&self) -> u64 { 0 }\n}\n",
            ),
            IndexedFile::parsed("src/response.rs", Lang::Rust, "pub struct Response;\n"),
            // Uses of the trait items' names: of the traits', not of this file's.
            IndexedFile::parsed(
                "src/app.rs",
                Lang::Rust,
                "pub fn app(r: Response) -> Response {\n    r.call();\n    r.fmt(f);\n    r\n}\n",
            ),
        ];
        let outlines = outline_all(&files);
        let outline = outlines.iter().find(|o| o.path == "src/routing/not_found.rs").unwrap();
        // The types and their own method first; a trait's method once however many types
        // implement it; associated types never.
        assert_eq!(names(outline), ["NotFound", "Gone", "at", "call", "fmt"]);
    }

    #[test]
    fn a_type_s_members_leave_a_top_level_namesake_its_uses_and_its_entry() {
        // serde_json's shape: `enum Value` beside visitors' `type Value = …;`, and `fn
        // from_str` after `impl FromStr`'s `fn from_str`.
        let visitor = |i: usize| {
            let source = format!(
                "struct V{i};\nimpl<'de> Visitor<'de> for V{i} {{\n    type Value = u8;\n    \
                 fn visit_u8(self, v: u8) -> u8 {{ v }}\n}}\n"
            );
            IndexedFile::parsed(&format!("src/de_{i}.rs"), Lang::Rust, &source)
        };
        let mut files: Vec<IndexedFile> = (0..4).map(visitor).collect();
        files.push(IndexedFile::parsed(
            "src/types.rs",
            Lang::Rust,
            "pub enum Value { Null }\npub fn helper_one() {}\npub fn helper_two() {}\n\
             impl FromStr for Value {\n    fn from_str(s: &str) -> Value { Value::Null }\n}\n\
             pub fn from_str(s: &str) -> Value { Value::Null }\n",
        ));
        let user =
            "fn user(v: Value) -> Value {\n    helper_one();\n    helper_two();\n    from_str(\"null\")\n}\n";
        files.extend((0..2).map(|i| IndexedFile::parsed(&format!("src/user_{i}.rs"), Lang::Rust, user)));
        let outlines = outline_all(&files);
        let outline = outlines.iter().find(|o| o.path == "src/types.rs").unwrap();
        let users = |name: &str, parent: Option<&str>| {
            let def = outline.defs.iter().find(|d| d.name == name && d.parent.as_deref() == parent);
            def.map(|d| d.users)
        };
        assert_eq!(users("Value", None), Some(2), "{:?}", outline.defs);
        assert_eq!(users("from_str", None), Some(2), "{:?}", outline.defs);
    }

    #[test]
    fn a_module_named_by_its_folder_is_where_its_namesake_is_looked_for() {
        // minijinja's `value/mod.rs`: `Value` is also a name four other crates define.
        let mut files: Vec<IndexedFile> = (0..4)
            .map(|i| IndexedFile::parsed(&format!("crate_{i}/src/lib.rs"), Lang::Rust, "pub struct Value;\n"))
            .collect();
        let module = "pub struct Value(pub(crate) u8);\nimpl Value {\n    pub fn kind_of(&self) {}\n}\n\
                      pub(crate) struct SmallStr;\nimpl SmallStr {\n    pub fn small_len(&self) {}\n}\n";
        files.push(IndexedFile::parsed("src/value/mod.rs", Lang::Rust, module));
        let user = "fn f(v: Value, s: SmallStr) { s.small_len(); }\n";
        files.push(IndexedFile::parsed("src/use.rs", Lang::Rust, user));
        files.push(IndexedFile::parsed("src/more.rs", Lang::Rust, user));
        files.push(IndexedFile::parsed("src/other.rs", Lang::Rust, "fn g(v: Value) { v.kind_of(); }\n"));
        let outlines = outline_all(&files);
        let outline = outlines.iter().find(|o| o.path == "src/value/mod.rs").unwrap();
        let value = outline.defs.iter().find(|d| d.name == "Value").unwrap();
        assert_eq!(value.users, 3, "{:?}", outline.defs);
        // A crate-private type's `pub fn` is no more public than the type: after the
        // public type's, though more files call it.
        let at = |name: &str| names(outline).iter().position(|n| *n == name).unwrap();
        assert!(at("kind_of") < at("small_len"), "{:?}", outline.defs);
    }

    #[test]
    fn among_used_names_the_one_more_files_use_leads_however_short() {
        let user =
            |i: usize, calls: &str| IndexedFile::parsed(&format!("src/pkg/view_{i}.py"), Lang::Python, calls);
        let files = [
            IndexedFile::parsed(
                "src/pkg/helpers.py",
                Lang::Python,
                "def get_flashed_messages_for(category):\n    pass\n\ndef url_for(endpoint):\n    pass\n",
            ),
            IndexedFile::parsed(
                "src/pkg/other.py",
                Lang::Python,
                "def render_other_template(name):\n    pass\n",
            ),
            // Each file's rank goes mostly to the long, specific names it calls (×10).
            user(0, "get_flashed_messages_for('x')\nurl_for('a')\n"),
            user(1, "render_other_template('y')\nurl_for('b')\n"),
            user(2, "render_other_template('z')\nurl_for('c')\n"),
        ];
        let hashes = files.iter().map(|f| (f.path.clone(), [0; 32])).collect();
        let ranking = crate::graph::rank(&files, &Focus::default());
        // The graph scores the long, specific name higher ...
        assert!(ranking.def_rank[0][0] > ranking.def_rank[0][1], "{:?}", ranking.def_rank[0]);
        // ... the outline shows first what more of the code uses.
        let outlines = outlines(&files, &ranking, &hashes, |_| true);
        assert_eq!(names(&outlines[0]), ["url_for", "get_flashed_messages_for"]);
    }

    #[test]
    fn signatures_on_one_line() {
        assert_eq!(
            one_line(
                "def add_url_rule(\n    self,\n    rule: str,\n    endpoint: str | None = None,\n) -> None:"
            ),
            "def add_url_rule(self, rule: str, endpoint: str | None = None) -> None"
        );
        assert_eq!(one_line("pub fn get<T>(\n    &self,\n) -> T {"), "pub fn get<T>(&self) -> T");
        assert_eq!(one_line("TYPES = (\"text/event-stream\",)"), "TYPES = (\"text/event-stream\",)");
        assert_eq!(one_line("pub fn sign() {}"), "pub fn sign()");
        // An empty value is what it holds, not a body (marshmallow's `_registry = {}`).
        assert_eq!(one_line("_registry = {}"), "_registry = {}");
        assert_eq!(one_line("def get(self) -> int: ..."), "def get(self) -> int");
        let long = format!("fn f({})", "a: u8, ".repeat(40));
        assert!(
            one_line(&long).ends_with(" …") && one_line(&long).chars().count() <= MAX_SIGNATURE_CHARS + 2
        );
    }
}
