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
use crate::lang::Lang;
use crate::tags::{Def, Kind, constant_run};

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
        let (digest, ranking) = overview_ranking(ws, &files);
        inputs.save(ws, &files, &digest, &ranking)?;
    }
    Ok(ws.build(options)?)
}

/// The ranking of `files` with no focus, and their graph's digest: kept in
/// the store unless the graph changed (an edit inside a body leaves it, so
/// the ranking, as it was), else ranked and kept.
pub fn overview_ranking(ws: &mut Workspace, files: &[IndexedFile]) -> ([u8; 32], Ranking) {
    let digest = graph::digest_cached(ws, files);
    let ranking = Ranking::kept(ws, &digest, files).unwrap_or_else(|| {
        let ranking =
            Graph::cached_with_digest(ws, files, &Default::default(), digest).rank(&Focus::default());
        ranking.keep(ws, &digest);
        ranking
    });
    (digest, ranking)
}

/// Store the outlines of `files`, whose graph's digest is `digest` and
/// `ranking` their ranking with no focus, unless the files' contents are
/// those they were last made from. Outlines are derived data: a store that
/// cannot be written keeps the ones it has.
pub fn save(ws: &mut Workspace, files: &[IndexedFile], digest: &[u8; 32], ranking: &Ranking) -> Result<()> {
    let inputs = Inputs::of(ws, files)?;
    if inputs.stored(ws) { Ok(()) } else { inputs.save(ws, files, digest, ranking) }
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
const VERSION: u32 = 37;

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
        let member = def.is_member(&files[i].tags.defs);
        let definers = if member { &member_definers } else { &definers };
        // A method named as the language's everyday types' (`get`, `set`, `len`) is called
        // on those all over (koa's supertest `.get('/')` chains are no use of `request.get`).
        // So is a function assigned as an object's property (immer's `arrayTraps.set = function`).
        let called_on = member || def.assigned_owner().is_some();
        let everyday =
            called_on && Lang::from_name(&files[i].lang).is_some_and(|l| l.is_library_method(name));
        let specific = !everyday
            && definers.get(name).is_none_or(|d| {
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
            let mut first_named: HashMap<(&str, Kind), u32> = HashMap::default();
            for (d, def) in defs.iter().enumerate().rev() {
                first_named.insert((def.name.as_str(), def.kind), d as u32);
            }
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
                // A public class's constructor, which takes what it is made with (tenacity's
                // `BaseRetrying.__init__(sleep, stop, wait, retry, …)`), is used wherever
                // the class is, though nothing names it.
                let made_with = |parent: &Def| {
                    let bare = def.signature.replace(' ', "");
                    def.is_constructor()
                        && !bare.contains("(self)")
                        && !bare.contains("()")
                        && exports.visible_elsewhere(defs, parent)
                };
                let users = match def.parent(defs).filter(|&parent| made_with(parent)) {
                    Some(parent) => users.len().max(users_of(i, parent, &exports).count()),
                    None => users.len(),
                };
                // One entry per overload set, and per trait method however many
                // types of the file implement it (`fn fmt` once), apart from a
                // top-level namesake (serde_json's `fn from_str` beside `impl FromStr`'s).
                // In tests, a helper class each test class declares again (marshmallow's
                // `class MySchema(Schema)` in three of them) is one entry.
                // A member of one of two same-named parents (Rust's `mod sync` for loom and
                // for std, under exclusive `#[cfg]`s) is in the first of them.
                let set = if fills_in || (!in_code && def.kind == Kind::Class) {
                    Some(u32::MAX)
                } else {
                    def.parent.map(|p| {
                        defs.get(p as usize)
                            .and_then(|p| first_named.get(&(p.name.as_str(), p.kind)))
                            .copied()
                            .unwrap_or(p)
                    })
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
                        surface: ranking.is_surface(i, d),
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
            // The file's own items before what it fills in of a trait, and before data; public, then
            // the package's surface by the graph's score (which weighs its members' users when
            // their names are too common to count here: reqwest's `Client::get`); then used and top
            // level first (a private name "used" elsewhere is mostly another's: `.find()`);
            // of what no other file uses, the code before its constants (a middleware's
            // methods before the `STYLES` and `JS` of its error page); then by how many
            // files use it, where the graph's score would favour long names
            // (`get_flashed_messages` over `url_for`).
            picked.sort_by(|a, b| {
                let used = |c: &Candidate| {
                    if c.surface {
                        (true, true, true, 0)
                    } else {
                        (c.users > 0, c.code || c.users > 0, c.top, c.users)
                    }
                };
                (b.own, !b.data, b.current, b.public, b.named_anew, b.surface, used(b))
                    .cmp(&(a.own, !a.data, a.current, a.public, a.named_anew, a.surface, used(a)))
                    .then(b.score.total_cmp(&a.score))
                    .then(a.d.cmp(&b.d))
            });
            let families = constant_families(&mut picked, defs);
            picked.truncate(MAX_DEFS);
            classes_before_their_members(&mut picked, defs);
            // What the file passes on of other modules: an entry file's are what a reader
            // meets the package through (`from .schema import Schema` in `__init__.py`),
            // before its own; another's follow its own.
            let used_elsewhere =
                |name: &str| users.get(name).map_or(0, |u| u.iter().filter(|&&u| u != i).count());
            let passed_on = reexport_lines(file, used_elsewhere);
            // But an entry file's own public classes and functions lead, with their
            // members (tenacity's `__init__.py` defines `Retrying`, `retry` and
            // `RetryError` beside nine lines of imports; rayon's `iter/mod.rs`,
            // `ParallelIterator` beside the `pub use`s of fifty adaptors), and so does
            // whatever of its own more files use than any name it passes on.
            let most_passed_on = passed_on.first().map_or(0, |line| line.users);
            let lead = match is_entry_file(&file.path) {
                true => picked
                    .iter()
                    .take_while(|c| !c.top || (c.public && c.code) || c.users > most_passed_on as usize)
                    .count(),
                false => picked.len(),
            };
            let mut defs: Vec<OutlineDef> = (picked.into_iter())
                .map(|c| OutlineDef {
                    also: families.get(&c.d).cloned().unwrap_or_default(),
                    ..outline_def(file, &defs[c.d], c.users)
                })
                .collect();
            defs.splice(lead..lead, passed_on);
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

/// Folds each family of constants set one after another ([`constant_run`])
/// into the best of its members `picked` (sorted best first): the others
/// leave `picked`, and the best's entry names them all but itself, in their
/// order. Returns, per definition keeping a family, the others' names.
fn constant_families(picked: &mut Vec<Candidate>, defs: &[Def]) -> HashMap<usize, Vec<String>> {
    let mut families: HashMap<usize, Vec<String>> = HashMap::default();
    let mut folded: HashSet<usize> = HashSet::default();
    for c in picked.iter() {
        if folded.contains(&c.d) {
            continue;
        }
        let Some(family) = defs[c.d].constant_family() else { continue };
        // The run around it: back to the family's first, then as far as it goes.
        let same = |k: usize| defs[k].parent == defs[c.d].parent && defs[k].constant_family() == Some(family);
        let start = (0..c.d).rev().take_while(|&k| same(k)).last().unwrap_or(c.d);
        let ids: Vec<usize> = (start..defs.len()).collect();
        let run = constant_run(defs, &ids);
        if run == 0 {
            continue;
        }
        let members = start..start + run;
        folded.extend(members.clone());
        let mut others: Vec<String> =
            members.filter(|&k| k != c.d).map(|k| defs[k].name.to_string()).collect();
        if others.len() > FAMILY_NAMES {
            let more = others.len() - FAMILY_NAMES;
            others.truncate(FAMILY_NAMES);
            others.push(format!("… (+{more})"));
        }
        families.insert(c.d, others);
    }
    picked.retain(|c| families.contains_key(&c.d) || !folded.contains(&c.d));
    families
}

/// Most names of a family's other constants an outline entry gives, then `… (+N)`.
const FAMILY_NAMES: usize = 12;

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
                also: Vec::new(),
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
    /// Of the package's public surface ([`Ranking::is_surface`]): what its users
    /// call on a type it exports (reqwest's `Response::text`), whose common name
    /// leaves it no users of its own here.
    surface: bool,
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
        name: def.name.to_string(),
        signature: one_line(&def.signature) + def.deprecation_note(&file.lang),
        line: def.line,
        parent: def.parent(defs).map(parent_label),
        users: users as u32,
        also: Vec::new(),
    }
}

/// How a member's outline entry names what it sits in: its class, its type
/// (`Response`, not `super::response::Response`), or a trait impl as written
/// without its bounds (`impl IntoUrlSealed for Url`, `impl<S> Resolve for S`):
/// "in `Url`" had said `as_str` was `Url`'s own method, "in `S`" nothing.
fn parent_label(parent: &Def) -> String {
    if parent.kind != Kind::Impl {
        return parent.name.to_string();
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
mod tests;
