//! The half of the reference graph that no task changes: each definition's
//! name, and every edge with its weight before the task's names count more.
//!
//! It follows from the files' paths and contents alone, so it is kept in the
//! store under their digest and a warm `ctx rank` or map decodes it instead
//! of matching every reference to its definers again (on a repository of
//! 2,500 Rust files: 200,000 edges, ~25 ms to build, a few to read back).

use ctxkeep_core::Workspace;
use ctxkeep_core::paths::PathRole;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{MAX_DEFINERS, name_weight};
use crate::exports::{JsModule, declaration_twin_of};
use crate::index::IndexedFile;
use crate::lang::Lang;
use crate::tags::DefaultExport;

/// A definition whose name no file defines (an `impl` of a foreign type),
/// or a (file, name) pair no reference reaches.
pub(super) const NONE: u32 = u32::MAX;

/// A file defining a name, and how: at the top (a function, type, constant, …),
/// as a member of a type (a method, an impl's `type Value`), or both.
struct Definer {
    file: u32,
    function: bool,
    method: bool,
    /// Only declared at the top of a JavaScript or TypeScript module that does
    /// not export it ([`JsModule::hides`]): no other file can use it.
    hidden: bool,
}

/// A reference from one file to a name another defines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Edge {
    pub from: u32,
    pub to: u32,
    /// Where the rank flowing along this edge collects: one slot per (to, name).
    pub slot: u32,
    pub weight: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Base {
    /// Per definition of every file (each file's defs in turn): its name's id,
    /// [`NONE`] if no file defines the name.
    pub def_names: Vec<u32>,
    /// Per definition: the slot of its (file, name), [`NONE`] if no reference reaches it.
    pub def_slots: Vec<u32>,
    /// Per definition: the slot of its (file, type and name) for a method of a
    /// type (Rust's `ProgressBar::new`), where uses that name the type
    /// (`ProgressBar::new()`) collect; [`NONE`] for others, or if none reaches it.
    pub owned_slots: Vec<u32>,
    /// Each slot's name id.
    pub slot_names: Vec<u32>,
    /// Sorted by (from, to); the weight is the one without the task's names.
    pub edges: Vec<Edge>,
    /// Per file, the weight of its uses the standard library answers rather
    /// than the files that define the same names ([`LIBRARY_WEIGHT`]): part
    /// of its out-weight, leading out of the repository.
    pub outside: Vec<f64>,
}

impl Base {
    /// The base of `files` (whose [`digest`] is `digest`): from the store
    /// when it holds the one of these files, else built (and kept for the next run).
    pub fn cached(ws: &mut Workspace, files: &[IndexedFile], digest: &[u8; 32]) -> Base {
        if let Ok(Some(Some(base))) = ws.derived_bytes(KEY, |bytes| decode(bytes, digest, files)) {
            return base;
        }
        let base = Base::build(files);
        // Keeping it only saves the next run some work: a read-only store must not cost the answer.
        let _ = ws.save_derived_bytes(KEY, &encode(&base, digest));
        base
    }

    pub fn build(files: &[IndexedFile]) -> Base {
        let mut name_ids: HashMap<&str, u32> = HashMap::default();
        // Per name id, the files defining it.
        let mut definers: Vec<Vec<Definer>> = Vec::new();
        let paths: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
        for (i, file) in files.iter().enumerate() {
            let module = JsModule::of(file);
            // `index.d.cts` beside `index.d.ts`: the same declarations twice, uses go to one.
            let twin = declaration_twin_of(&file.path).is_some_and(|of| paths.contains(of.as_str()));
            let defs = &file.tags.defs;
            for def in defs.iter().filter(|d| d.kind.defines_name()) {
                let id = *name_ids.entry(&def.name).or_insert_with(|| {
                    definers.push(Vec::new());
                    definers.len() as u32 - 1
                });
                let list = &mut definers[id as usize];
                if list.last().is_none_or(|d| d.file != i as u32) {
                    list.push(Definer { file: i as u32, function: false, method: false, hidden: true });
                }
                if let Some(last) = list.last_mut() {
                    // A member of a class, impl or trait (Rust's `type Value = …;` in an
                    // `impl Visitor`) is named on its type or a value, never bare: a bare
                    // `Value` is serde_json's `enum Value`, not one of forty visitors'.
                    let member = def.is_member(defs);
                    last.function |= !member;
                    last.method |= member;
                    // Hidden only if every definition of the name there is.
                    last.hidden &= twin || module.as_ref().is_some_and(|m| m.hides(def));
                }
            }
        }
        let def_names: Vec<u32> = files
            .iter()
            .flat_map(|f| &f.tags.defs)
            .map(|d| name_ids.get(d.name.as_str()).copied().unwrap_or(NONE))
            .collect();
        // A method of a type is also its type's: ids of their own per (type, method), which
        // only uses naming the type (`ProgressBar::new()`, `Path.home()`) reach.
        let mut owned_ids: HashMap<(&str, &str), u32> = HashMap::default();
        let mut def_owned: Vec<u32> = Vec::with_capacity(def_names.len());
        for (i, file) in files.iter().enumerate() {
            let defs = &file.tags.defs;
            for def in defs {
                // Its impl's or class's type, or the object it is assigned to (`AxiosError.from = …`).
                let in_type = def.parent(defs).filter(|p| p.kind.holds_methods());
                let owner = match in_type {
                    Some(p) => p.name.split('<').next().map(str::trim),
                    None => def.assigned_owner(),
                };
                let Some(owner) = owner.filter(|_| def.kind.defines_name()) else {
                    def_owned.push(NONE);
                    continue;
                };
                let id = *owned_ids.entry((owner, def.name.as_str())).or_insert_with(|| {
                    definers.push(Vec::new());
                    definers.len() as u32 - 1
                });
                let list = &mut definers[id as usize];
                if list.last().is_none_or(|d| d.file != i as u32) {
                    list.push(Definer { file: i as u32, function: false, method: true, hidden: false });
                }
                def_owned.push(id);
            }
        }
        let mut folder_ids = HashMap::default();
        let places: Vec<Place> = files.iter().map(|f| Place::of(&f.path, &f.lang, &mut folder_ids)).collect();
        // Per name id and language, whether its library gives it: looked up once a name, not once a use.
        let languages: Vec<Option<Lang>> = files.iter().map(|f| Lang::from_name(&f.lang)).collect();
        let present: Vec<Lang> = Lang::ALL.into_iter().filter(|l| languages.contains(&Some(*l))).collect();
        let mut library = vec![Library::default(); definers.len()];
        for (name, &id) in &name_ids {
            for &lang in &present {
                let bit = 1u8 << library_slot(lang);
                let entry = &mut library[id as usize];
                entry.names |= if lang.is_library_name(name) { bit } else { 0 };
                entry.methods |= if lang.is_library_method(name) { bit } else { 0 };
            }
        }

        let modules = super::imports::Modules::new(files);
        // How likely a use in file `from` means any of `targets` at all: code does not
        // use what only tests, examples or benches define, so such a use is most likely
        // of something else's (pino's `opts.level` is no test's `formatters: { level() }`).
        let plausibility = |from: u32, targets: &[Definer]| {
            let place = &places[from as usize];
            let plausible = place.role.is_auxiliary()
                || targets.iter().any(|d| d.file == from || !places[d.file as usize].aside_from_code());
            if plausible { 1.0 } else { IMPLAUSIBLE }
        };
        // Edges (from, to, name, weight) and the weight leading out, each file's in parallel.
        type FileEdges = (Vec<(u32, u32, u32, f64)>, f64);
        let per_file: Vec<FileEdges> = files
            .par_iter()
            .enumerate()
            .map(|(from, file)| {
                let from_id = from as u32;
                let lang = languages[from];
                let bit = lang.map_or(0, |l| 1u8 << library_slot(l));
                let (mut edges, mut shares, mut outside) = (Vec::new(), Vec::new(), 0.0);
                for r in &file.tags.refs {
                    // The uses naming a type the method is defined on go to that type's
                    // method (of a type several files define, by affinity); the rest are
                    // the name's as any other use.
                    let mut resolved = 0;
                    for (owner, uses) in &r.owners {
                        let Some(&id) = owned_ids.get(&(owner.as_str(), r.name.as_str())) else { continue };
                        let targets = &definers[id as usize];
                        shares.clear();
                        shares.extend(
                            targets.iter().map(|d| {
                                affinity(&places[from], &places[d.file as usize], d.file == from_id)
                            }),
                        );
                        let total: f64 = shares.iter().sum();
                        if total <= 0.0 {
                            continue;
                        }
                        resolved += uses;
                        let full_weight = name_weight(&r.name, targets.len()) * f64::from(*uses).sqrt();
                        let weight = full_weight * plausibility(from_id, targets);
                        outside += full_weight - weight;
                        for (d, share) in targets.iter().zip(&shares).filter(|(d, _)| d.file != from_id) {
                            if *share > 0.0 {
                                edges.push((from_id, d.file, id, weight * share / total));
                            }
                        }
                    }
                    // Rust's and Python's uses on a type are method uses; JavaScript's are any.
                    let resolved_methods =
                        if lang.is_some_and(Lang::is_javascript_like) { 0 } else { resolved };
                    let (uses, method_uses) =
                        (r.count.saturating_sub(resolved), r.method.saturating_sub(resolved_methods));
                    if uses == 0 {
                        continue;
                    }
                    // A name bound to a module's default export is the name that module
                    // exports: express's tests' `express()` of `require('../')` is
                    // `lib/express.js`'s `createApplication`.
                    let whole = r.from.as_deref().filter(|_| r.default_import);
                    let default = whole.and_then(|module| modules.default_export(from, module));
                    let name = default.map_or(r.name.as_str(), |(_, name)| name);
                    let Some(&id) = name_ids.get(name) else { continue };
                    let targets = &definers[id as usize];
                    // A name the file imports from a module of the repository is that module's
                    // (or the one it re-exports it from), however many files define one: httpie's
                    // `from .cli.definition import parser`.
                    let imported = match default {
                        Some((file, _)) => targets.iter().any(|d| d.file == file).then_some(file),
                        None if targets.len() > 1 && r.from.is_some() => {
                            modules.definer(from, name, |file| targets.iter().any(|d| d.file == file))
                        }
                        None => None,
                    };
                    if targets.len() > MAX_DEFINERS && imported.is_none() {
                        continue;
                    }
                    let full_weight =
                        name_weight(name, targets.len().min(MAX_DEFINERS)) * f64::from(uses).sqrt();
                    let library_name = library[id as usize].names & bit != 0;
                    let weight = if library_name { full_weight * LIBRARY_WEIGHT } else { full_weight };
                    let weight = weight * plausibility(from_id, targets);
                    // A name defined in several files: each definer gets its share (a use
                    // of a name the file defines itself is mostly of its own).
                    shares.clear();
                    shares.extend(
                        targets
                            .iter()
                            .map(|d| affinity(&places[from], &places[d.file as usize], d.file == from_id)),
                    );
                    // A module's name it does not export is none of another file's, when some
                    // other file does let it be used (else the exports were missed: keep all), or
                    // the language has it (Hono's own `interface Set` in `context.ts` is no `new Set()`).
                    let visible =
                        |(d, share): (&Definer, &f64)| d.file != from_id && !d.hidden && *share > 0.0;
                    if targets.iter().any(|d| d.hidden)
                        && (library_name || targets.iter().zip(&shares).any(visible))
                    {
                        for (d, share) in targets.iter().zip(shares.iter_mut()) {
                            if d.hidden && d.file != from_id {
                                *share = 0.0;
                            }
                        }
                    }
                    // A file that defines the name itself means its own, never another
                    // module's private namesake (zustand's middleware each define and use a
                    // `type Write<T, U>`).
                    if targets.iter().any(|d| d.file == from_id) {
                        for (d, share) in targets.iter().zip(shares.iter_mut()) {
                            if d.hidden && d.file != from_id {
                                *share = 0.0;
                            }
                        }
                    }
                    // A name the file imports from outside the repository (`from pathlib import
                    // Path`) is no definition's here but the file's own.
                    if r.from.as_deref().is_some_and(|module| modules.is_external(from, module)) {
                        for (d, share) in targets.iter().zip(shares.iter_mut()) {
                            if d.file != from_id {
                                *share = 0.0;
                            }
                        }
                    }
                    // The module it is imported from: the look-alikes take none of it.
                    if let Some(file) = imported {
                        for (d, share) in targets.iter().zip(shares.iter_mut()) {
                            if d.file != file && d.file != from_id {
                                *share = 0.0;
                            }
                        }
                    }
                    // Each kind of use among the definers it can mean: bare uses (`url_for()`,
                    // `import url_for`, `flask.url_for()`) the functions, not `Flask.url_for`;
                    // calls on a value or type (`self.url_for()`, Rust's `it.map()`,
                    // `Pool::new()`) the methods; the rest (`app.url_for()`) any. A use no definer here can
                    // answer means something from elsewhere (`Iterator::map`): it links nothing.
                    let total: f64 = shares.iter().sum();
                    if total <= 0.0 {
                        // Defined only in other languages: a name of this file's own world.
                        continue;
                    }
                    let among = |answers: fn(&Definer) -> bool| -> f64 {
                        targets.iter().zip(&shares).filter(|(d, _)| answers(d)).map(|(_, s)| s).sum()
                    };
                    let (functions, methods) = (among(|d| d.function), among(|d| d.method));
                    let count = f64::from(uses);
                    let (bare, method) =
                        (f64::from(r.bare.min(uses)) / count, f64::from(method_uses) / count);
                    let rest = (1.0 - bare - method).max(0.0);
                    // `v.push()`, `d.get()`, `xs.map()` are mostly the standard library's: a
                    // call on a value (in Rust any call with a receiver, `self`'s too) of such
                    // a name counts little toward a method of the repository's own.
                    let (mut kept_rest, mut kept_method) = (rest, method);
                    if library[id as usize].methods & bit != 0 {
                        kept_rest *= LIBRARY_WEIGHT;
                        if lang == Some(Lang::Rust) {
                            kept_method *= LIBRARY_WEIGHT;
                        }
                    }
                    for (d, share) in targets.iter().zip(&shares).filter(|(d, _)| d.file != from_id) {
                        let of = |rest: f64, method: f64| {
                            let mut of = rest * share / total;
                            if d.function && functions > 0.0 {
                                of += bare * share / functions;
                            }
                            if d.method && methods > 0.0 {
                                of += method * share / methods;
                            }
                            of
                        };
                        let kept = weight * of(kept_rest, kept_method);
                        if kept > 0.0 {
                            edges.push((from_id, d.file, id, kept));
                        }
                        // What the library answers leads out of the repository, not to its other files.
                        outside += full_weight * of(rest, method) - kept;
                    }
                }
                (edges, outside)
            })
            .collect();
        let outside: Vec<f64> = per_file.iter().map(|(_, outside)| *outside).collect();
        let mut edges: Vec<(u32, u32, u32, f64)> =
            per_file.into_iter().flat_map(|(edges, _)| edges).collect();
        // Grouped by `from` already: a stable sort by target keeps each pair's names in order.
        for group in edges.chunk_by_mut(|a, b| a.0 == b.0) {
            group.sort_by_key(|e| e.1);
        }
        let mut slot_of: HashMap<(u32, u32), u32> = HashMap::default();
        let mut slot_names = Vec::new();
        let edges: Vec<Edge> = edges
            .into_iter()
            .map(|(from, to, name, weight)| {
                let slot = *slot_of.entry((to, name)).or_insert_with(|| {
                    slot_names.push(name);
                    slot_names.len() as u32 - 1
                });
                Edge { from, to, slot, weight }
            })
            .collect();
        let (mut def_slots, mut owned_slots) = (Vec::with_capacity(def_names.len()), Vec::new());
        let mut at = 0;
        for (i, file) in files.iter().enumerate() {
            for _ in &file.tags.defs {
                let slot = |name: u32| match name {
                    NONE => NONE,
                    name => slot_of.get(&(i as u32, name)).copied().unwrap_or(NONE),
                };
                def_slots.push(slot(def_names[at]));
                owned_slots.push(slot(def_owned[at]));
                at += 1;
            }
        }
        Base { def_names, def_slots, owned_slots, slot_names, edges, outside }
    }
}

/// Per name, the languages whose standard library gives it (one bit each, [`library_slot`]).
#[derive(Debug, Clone, Copy, Default)]
struct Library {
    names: u8,
    methods: u8,
}

/// A language's bit in [`Library`]: its library's (TypeScript's and TSX's are JavaScript's).
fn library_slot(lang: Lang) -> u8 {
    match lang {
        Lang::Rust => 0,
        Lang::Python => 1,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => 2,
    }
}

/// Where the base is kept ([`Workspace::derived_bytes`]).
const KEY: &str = "graph-base";
/// The encoding's version; a change of what the base holds or how edges
/// are weighed must change it (the tags' version is part of the digest).
const VERSION: u32 = 19;
/// What a use of a name the standard library gives weighs, against one of the
/// repository's own: its prelude's types and values ([`crate::lang::Lang::is_library_name`])
/// anywhere, its everyday types' methods ([`crate::lang::Lang::is_library_method`])
/// called on a value.
const LIBRARY_WEIGHT: f64 = 0.1;
const MAGIC: &[u8; 4] = b"CTXG";

/// What the base follows from: every file's path and language, the
/// names it defines (with their kinds, in order) and those it references
/// (with how), under this extractor, these path roles and this way of weighing. Not lines,
/// signatures or anything else of the content: an edit inside a body or a
/// comment leaves the graph, and so the overview's ranking, as it was.
pub(crate) fn digest(files: &[IndexedFile]) -> [u8; 32] {
    // Each file's shape on the pool's threads: hashing 300,000 names on one is ~15 ms.
    let shapes: Vec<blake3::Hash> = files.par_iter().map(shape).collect();
    let mut hasher = blake3::Hasher::new();
    hasher.update(&VERSION.to_le_bytes()).update(&crate::tags::TAGS_VERSION.to_le_bytes());
    hasher.update(&ctxkeep_core::paths::ROLE_RULES_VERSION.to_le_bytes());
    for (file, shape) in files.iter().zip(&shapes) {
        hasher.update(file.path.as_bytes()).update(b"\0").update(file.lang.as_bytes()).update(b"\0");
        hasher.update(shape.as_bytes());
    }
    *hasher.finalize().as_bytes()
}

/// [`digest`] of `files`, read from the store when their contents are those
/// it was last made from: hashing every file's shape is ~25M instructions on
/// a large repository (rust-crates), hashing its contents' hashes a hundredth
/// of that. The tags of a content follow from its bytes and language under
/// one extractor, so the same contents have the same shapes.
pub(crate) fn digest_cached(ws: &mut Workspace, files: &[IndexedFile]) -> [u8; 32] {
    let contents = contents_digest(files);
    let known = ws.derived_bytes(DIGEST_KEY, |bytes| {
        bytes.strip_prefix(&contents).and_then(|shapes| <[u8; 32]>::try_from(shapes).ok())
    });
    if let Ok(Some(Some(shapes))) = known {
        return shapes;
    }
    let shapes = digest(files);
    // Keeping it only saves the next run some work: a read-only store must not cost the answer.
    let _ = ws.save_derived_bytes(DIGEST_KEY, &[contents, shapes].concat());
    shapes
}

/// Where [`digest_cached`] keeps the digest of the contents it was made from, then the digest.
const DIGEST_KEY: &str = "graph-digest";

/// Every file's path, language and content hash, under these versions of
/// what the [`digest`] depends on.
fn contents_digest(files: &[IndexedFile]) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    hasher
        .update(b"contents")
        .update(&VERSION.to_le_bytes())
        .update(&crate::tags::TAGS_VERSION.to_le_bytes());
    hasher.update(&ctxkeep_core::paths::ROLE_RULES_VERSION.to_le_bytes());
    for file in files {
        hasher.update(file.path.as_bytes()).update(b"\0").update(file.lang.as_bytes()).update(b"\0");
        hasher.update(&file.hash);
    }
    *hasher.finalize().as_bytes()
}

/// What of one file's tags the graph reads, hashed: laid out in one buffer
/// first, as one update per name costs blake3 more than the bytes do.
fn shape(file: &IndexedFile) -> blake3::Hash {
    let tags = &file.tags;
    let mut bytes = Vec::with_capacity(8 + tags.defs.len() * 24 + tags.refs.len() * 28);
    bytes.extend_from_slice(&(tags.defs.len() as u32).to_le_bytes());
    for def in &tags.defs {
        bytes.extend_from_slice(def.name.as_bytes());
        bytes.extend_from_slice(&[0, def.kind as u8]);
    }
    for r in &tags.refs {
        bytes.extend_from_slice(r.name.as_bytes());
        bytes.push(0);
        for value in [r.count, r.bare, r.method] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(r.from.as_deref().unwrap_or("").as_bytes());
        bytes.push(if r.default_import { 1 } else { 0 });
        for (owner, uses) in &r.owners {
            bytes.extend_from_slice(owner.as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(&uses.to_le_bytes());
        }
        bytes.push(0);
    }
    if let Some(export) = &tags.default_export {
        let (tag, text) = match export {
            DefaultExport::Name(name) => (1, name),
            DefaultExport::Module(module) => (2, module),
        };
        bytes.push(tag);
        bytes.extend_from_slice(text.as_bytes());
    }
    for module in &tags.reexports_all {
        bytes.push(3);
        bytes.extend_from_slice(module.as_bytes());
    }
    blake3::hash(&bytes)
}

/// Magic, version, digest, then the counts and arrays, little-endian.
fn encode(base: &Base, digest: &[u8; 32]) -> Vec<u8> {
    let words = 4 + base.def_names.len() * 3 + base.slot_names.len() + base.edges.len() * 5;
    let mut out = Vec::with_capacity(40 + words * 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(digest);
    for count in [base.def_names.len(), base.slot_names.len(), base.edges.len()] {
        out.extend_from_slice(&(count as u32).to_le_bytes());
    }
    for &value in
        base.def_names.iter().chain(&base.def_slots).chain(&base.owned_slots).chain(&base.slot_names)
    {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for edge in &base.edges {
        for value in [edge.from, edge.to, edge.slot] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&edge.weight.to_le_bytes());
    }
    for outside in &base.outside {
        out.extend_from_slice(&outside.to_le_bytes());
    }
    out
}

/// The base in `bytes` if it was made from these files (`digest`) and is
/// whole; anything else reads as not cached.
fn decode(bytes: &[u8], digest: &[u8; 32], files: &[IndexedFile]) -> Option<Base> {
    let rest = bytes.strip_prefix(MAGIC)?.strip_prefix(&VERSION.to_le_bytes())?.strip_prefix(digest)?;
    let (counts, rest) = rest.split_at_checked(12)?;
    let mut counts = counts.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize);
    let (defs, slots, edges) = (counts.next()?, counts.next()?, counts.next()?);
    let defs_expected: usize = files.iter().map(|f| f.tags.defs.len()).sum();
    let words = defs.checked_mul(3)?.checked_add(slots)?.checked_mul(4)?;
    let outside_bytes = files.len().checked_mul(8)?;
    if defs != defs_expected
        || rest.len() != words.checked_add(edges.checked_mul(20)?)?.checked_add(outside_bytes)?
    {
        return None;
    }
    let (words, rest) = rest.split_at(words);
    let (rest, outside) = rest.split_at(rest.len() - outside_bytes);
    let outside: Vec<f64> = outside
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    let word = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    let mut words = words.chunks_exact(4).map(word);
    let def_names: Vec<u32> = words.by_ref().take(defs).collect();
    let def_slots: Vec<u32> = words.by_ref().take(defs).collect();
    let owned_slots: Vec<u32> = words.by_ref().take(defs).collect();
    let slot_names: Vec<u32> = words.collect();
    let (n, slots) = (files.len() as u32, slot_names.len() as u32);
    let edges: Vec<Edge> = rest
        .chunks_exact(20)
        .map(|c| Edge {
            from: word(&c[0..4]),
            to: word(&c[4..8]),
            slot: word(&c[8..12]),
            weight: f64::from_le_bytes([c[12], c[13], c[14], c[15], c[16], c[17], c[18], c[19]]),
        })
        .collect();
    // Indices out of range would panic later: damaged bytes are "not cached".
    let sorted = edges.windows(2).all(|w| (w[0].from, w[0].to) <= (w[1].from, w[1].to));
    let in_range = edges.iter().all(|e| e.from < n && e.to < n && e.slot < slots && e.weight.is_finite())
        && def_slots.iter().chain(&owned_slots).all(|&s| s == NONE || s < slots)
        && outside.iter().all(|w| w.is_finite() && *w >= 0.0);
    (sorted && in_range).then_some(Base { def_names, def_slots, owned_slots, slot_names, edges, outside })
}

/// Where a file sits, for [`affinity`].
pub(super) struct Place<'a> {
    role: PathRole,
    /// Ids of the file's first three folders, each with the folders above
    /// it (`a`, `a/b`, `a/b/c`); 0 past the last. Equal ids, equal paths.
    folders: [u32; 3],
    /// The first component of the path.
    top: &'a str,
    /// A test module (`test_app.py`, `app.test.ts`): nothing outside imports it.
    test_module: bool,
    /// Its language's family ([`super::language_family`]): code uses no name
    /// of another language's (a Rust `String` is no Kotlin `fun String.f()`).
    family: &'a str,
}

impl<'a> Place<'a> {
    pub(super) fn of(path: &'a str, lang: &'a str, folder_ids: &mut HashMap<&'a str, u32>) -> Place<'a> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        // A bare file name's role is that of its name alone (`test_x.py`, `x.spec.ts`).
        let test_module = PathRole::of(name) == PathRole::Test;
        let mut folders = [0; 3];
        // The root is a folder of its own: two files there share it.
        let ends = dir.match_indices('/').map(|(i, _)| i).chain(std::iter::once(dir.len()));
        for (slot, end) in folders.iter_mut().zip(ends) {
            let next = folder_ids.len() as u32 + 1;
            *slot = *folder_ids.entry(&dir[..end]).or_insert(next);
        }
        let top = path.split('/').next().unwrap_or(path);
        Place { role: PathRole::of(path), folders, top, test_module, family: super::language_family(lang) }
    }
}

impl Place<'_> {
    /// Whether nothing in the code uses what this file defines: a test module,
    /// tests, fixtures, examples, benches, docs (not vendored code, which it does).
    fn aside_from_code(&self) -> bool {
        self.test_module || (self.role.is_auxiliary() && self.role != PathRole::Vendored)
    }
}

/// The share of a use in the code kept for definers only tests, examples and
/// the like give ([`Place::aside_from_code`]); the rest leads out of the repository.
const IMPLAUSIBLE: f64 = 0.05;

/// How likely a reference in `from` means the definition in `to`, relative
/// to the name's other definers: a test module's names are its own; tests,
/// examples and the like are not imported from outside their tree; a definer
/// in the same package or folder is likelier than a far one (×4 for each
/// leading folder in common, up to three); one in another language is none.
pub(super) fn affinity(from: &Place, to: &Place, same_file: bool) -> f64 {
    if from.family != to.family {
        return 0.0;
    }
    let common = from.folders.iter().zip(&to.folders).take_while(|(a, b)| a == b && **a != 0).count();
    let mut affinity = f64::from(1u32 << (2 * common));
    if !same_file {
        if to.test_module {
            affinity *= 0.01;
        } else if to.role.is_auxiliary() && (from.role != to.role || from.top != to.top) {
            affinity *= 0.02;
        }
    }
    affinity
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file as indexed;

    fn corpus() -> Vec<IndexedFile> {
        vec![
            indexed(
                "pkg/app.py",
                "from pkg.util import helper_function\nclass App:\n    def run(self):\n        helper_function()\n",
            ),
            indexed("pkg/util.py", "def helper_function():\n    return App()\n"),
            indexed("tests/test_app.py", "def test_run():\n    App().run()\n    helper_function()\n"),
        ]
    }

    #[test]
    fn a_javascript_module_s_unexported_name_takes_no_other_file_s_uses() {
        use crate::lang::Lang;
        // fastify's shape: the package's `fastify`, and a script's own `const fastify`.
        let files = [
            IndexedFile::parsed(
                "fastify.js",
                Lang::JavaScript,
                "function fastify (options) {}\nmodule.exports = fastify\n",
            ),
            IndexedFile::parsed(
                "integration/server.js",
                Lang::JavaScript,
                "const Fastify = require('../fastify')\nconst fastify = Fastify()\nfastify.listen()\n",
            ),
            IndexedFile::parsed("lib/route.js", Lang::JavaScript, "const x = require('./y')\nfastify(x)\n"),
        ];
        let base = Base::build(&files);
        let targets: Vec<u32> = base.edges.iter().filter(|e| e.from == 2).map(|e| e.to).collect();
        assert_eq!(targets, [0], "{:?}", base.edges);
        // Where no definer exports the name, its uses go where they went.
        let files = [
            IndexedFile::parsed("a.js", Lang::JavaScript, "const x = require('x')\nfunction helper () {}\n"),
            IndexedFile::parsed("b.js", Lang::JavaScript, "const y = require('y')\nhelper()\n"),
        ];
        assert!(Base::build(&files).edges.iter().any(|e| e.from == 1 && e.to == 0));
        // Unless the language has the name: Hono's own `interface Set` is no `new Set()`.
        let files = [
            IndexedFile::parsed(
                "src/context.ts",
                Lang::TypeScript,
                "interface Set { (key: string): void }
export class Context {}
",
            ),
            IndexedFile::parsed(
                "src/app.ts",
                Lang::TypeScript,
                "import { Context } from './context'
const seen = new Set()
",
            ),
        ];
        let edges = Base::build(&files).edges;
        assert!(edges.iter().all(|e| base_name(&files, e) != "Set"), "{edges:?}");
        assert!(edges.iter().any(|e| e.from == 1 && e.to == 0), "{edges:?}");
    }

    /// The name an edge's uses are of, for a test to read.
    fn base_name(files: &[IndexedFile], edge: &Edge) -> String {
        let base = Base::build(files);
        let id = base.slot_names[edge.slot as usize];
        let defs = files.iter().flat_map(|f| &f.tags.defs);
        defs.zip(&base.def_names)
            .find(|(_, n)| **n == id)
            .map(|(d, _)| d.name.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_declaration_file_s_twin_takes_no_uses_while_the_declaration_file_is_there() {
        use crate::lang::Lang;
        // axios's shape: `index.d.cts` repeats `index.d.ts` for CommonJS users.
        let declarations = "export class Axios {}\nexport function isCancel(value: any): boolean\n";
        let user = "import { Axios, isCancel } from 'axios'\nisCancel(new Axios())\n";
        let files = [
            IndexedFile::parsed("index.d.cts", Lang::TypeScript, declarations),
            IndexedFile::parsed("index.d.ts", Lang::TypeScript, declarations),
            IndexedFile::parsed("src/use.ts", Lang::TypeScript, user),
        ];
        let targets: Vec<u32> = Base::build(&files).edges.iter().map(|e| e.to).collect();
        assert!(!targets.is_empty() && targets.iter().all(|&t| t == 1), "{targets:?}");
        // Alone, it declares for everyone.
        let alone = [files[0].clone(), files[2].clone()];
        assert!(Base::build(&alone).edges.iter().any(|e| e.to == 0));
    }

    #[test]
    fn round_trips_and_rejects_other_files_and_damage() {
        let files = corpus();
        let base = Base::build(&files);
        assert!(!base.edges.is_empty() && base.def_slots.iter().any(|&s| s != NONE));
        let digest = digest(&files);
        let bytes = encode(&base, &digest);
        assert_eq!(decode(&bytes, &digest, &files), Some(base));
        for cut in 0..bytes.len() {
            assert_eq!(decode(&bytes[..cut], &digest, &files), None, "a cut at {cut} decodes");
        }
        // Another content, another digest: not this base.
        let mut changed = corpus();
        changed[1] = indexed("pkg/util.py", "def helper_function():\n    return None\n");
        assert_eq!(decode(&bytes, &self::digest(&changed), &changed), None);
        // An edge pointing past the files.
        let mut bad = bytes.clone();
        let first_edge = bytes.len() - 20 * Base::build(&files).edges.len();
        bad[first_edge + 4..first_edge + 8].copy_from_slice(&99u32.to_le_bytes());
        assert_eq!(decode(&bad, &digest, &files), None);
    }

    #[test]
    fn the_digest_follows_names_not_lines_or_comments() {
        let files = corpus();
        let edited = |text: &str| {
            let mut files = corpus();
            files[1] = indexed("pkg/util.py", text);
            digest(&files)
        };
        // A comment, a blank line, a body that calls the same names: the same graph.
        assert_eq!(edited("# util\n\ndef helper_function():\n    x = 1\n    return App()\n"), digest(&files));
        // A name used once more, a new definition, a use of a function as a method: another.
        for text in [
            "def helper_function():\n    return App(App())\n",
            "def helper_function():\n    return App()\ndef other():\n    pass\n",
            "def helper_function():\n    return x.App()\n",
        ] {
            assert_ne!(edited(text), digest(&files), "{text}");
        }
        // Another path or language: another.
        let mut moved = corpus();
        moved[1].path = "pkg/util2.py".into();
        assert_ne!(digest(&moved), digest(&files));
        moved[1].path = "pkg/util.py".into();
        moved[1].lang = "text".into();
        assert_ne!(digest(&moved), digest(&files));
    }

    #[test]
    fn a_name_imported_from_outside_the_repository_is_none_of_its_look_alikes() {
        // httpie's `cli/nested_json/tokens.py` defines a `Path`; `from pathlib import Path` is not it.
        let rust = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::Rust, source);
        let files = [
            indexed("pkg/tokens.py", "class Path:\n    pass\n"),
            indexed("pkg/config.py", "from pathlib import Path\n\ndef home():\n    return Path('~')\n"),
            indexed("pkg/parse.py", "from .tokens import Path\n\ndef parse():\n    return Path()\n"),
            rust("pkg/lib.rs", "use std::path::Path;\nfn f(p: &Path) {}\n"),
            rust("pkg/path.rs", "pub struct Path;\n"),
        ];
        let base = Base::build(&files);
        let into_tokens: Vec<u32> = base.edges.iter().filter(|e| e.to == 0).map(|e| e.from).collect();
        assert_eq!(into_tokens, [2], "{:?}", base.edges);
        assert!(!base.edges.iter().any(|e| e.from == 3), "{:?}", base.edges);
    }

    #[test]
    fn a_name_many_files_define_is_the_one_its_importer_names() {
        // Too many definers for the name alone to say which (`parser` in every command's
        // module); `from .cli.definition import parser` says.
        let mut files: Vec<IndexedFile> = (0..=super::super::MAX_DEFINERS)
            .map(|i| indexed(&format!("pkg/cmd{i}.py"), "parser = make()\n"))
            .collect();
        files.push(indexed("pkg/cli/definition.py", "parser = make()\n"));
        files.push(indexed(
            "pkg/core.py",
            "from .cli.definition import parser\n\ndef main():\n    parser.parse()\n",
        ));
        let base = Base::build(&files);
        let core = files.len() as u32 - 1;
        let to: Vec<u32> = base.edges.iter().filter(|e| e.from == core).map(|e| e.to).collect();
        assert_eq!(to, [core - 1], "{:?}", base.edges);
    }

    #[test]
    fn a_bare_use_means_a_function_and_a_call_on_self_a_method() {
        let files = [
            indexed("pkg/__init__.py", "from .helpers import url_for\n"),
            indexed("pkg/helpers.py", "def url_for(endpoint):\n    return current_app.url_for(endpoint)\n"),
            indexed(
                "pkg/app.py",
                "class Flask:\n    def url_for(self, endpoint):\n        return endpoint\n",
            ),
            indexed("pkg/views.py", "def index():\n    return url_for('x') + app.url_for('y')\n"),
            indexed("pkg/mixin.py", "class Mixin:\n    def link(self):\n        return self.url_for('z')\n"),
        ];
        let base = Base::build(&files);
        let weight = |from: u32, to: u32| -> f64 {
            base.edges.iter().filter(|e| (e.from, e.to) == (from, to)).map(|e| e.weight).sum()
        };
        // The import and the bare call mean the function; the member calls may mean the method.
        assert!(weight(0, 1) > 0.0 && weight(0, 2) == 0.0, "{:?}", base.edges);
        assert!(weight(1, 2) > 0.0, "{:?}", base.edges);
        // One bare use and one member use: the function gets the bare one and half the other.
        assert!((weight(3, 1) - 3.0 * weight(3, 2)).abs() < 1e-9, "{:?}", base.edges);
        // A call on `self` means the method.
        assert!(weight(4, 2) > 0.0 && weight(4, 1) == 0.0, "{:?}", base.edges);
    }

    #[test]
    fn nearness_counts_the_leading_folders_two_paths_share() {
        let paths = [
            "a.rs",
            "b.rs",
            "src/a.rs",
            "src/x/a.rs",
            "src/x/y/z/a.rs",
            "src/x/y/w/a.rs",
            "srcx/a.rs",
            "x/a.rs",
        ];
        let mut ids = HashMap::default();
        let places: Vec<Place> = paths.iter().map(|p| Place::of(p, "rust", &mut ids)).collect();
        for (i, from) in paths.iter().enumerate() {
            for (j, to) in paths.iter().enumerate() {
                // As the folders' names compare: the root shares itself, at most three count.
                let dir = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                let (a, b) = (dir(from), dir(to));
                let common = a.split('/').zip(b.split('/')).take_while(|(x, y)| x == y).count().min(3);
                let expected = f64::from(1u32 << (2 * common));
                assert_eq!(affinity(&places[i], &places[j], true), expected, "{from} {to}");
            }
        }
    }

    #[test]
    fn a_name_is_never_another_language_s() {
        let rust = |path: &str, source: &str| IndexedFile {
            path: path.into(),
            lang: "rust".into(),
            size: source.len() as u64,
            hash: *blake3::hash(source.as_bytes()).as_bytes(),
            tags: crate::tags::extract(crate::lang::Lang::Rust, source).unwrap(),
        };
        let files = [
            rust("src/main.rs", "fn main() {\n    let c = Config::default();\n    render(c);\n}\n"),
            indexed("tests/fixtures/config.py", "class Config:\n    pass\n\ndef render(c):\n    pass\n"),
            rust("src/config.rs", "pub struct Config;\n"),
        ];
        let base = Base::build(&files);
        // `Config` is the Rust struct's; `render`, defined only in Python, links nothing.
        assert!(base.edges.iter().all(|e| e.to != 1), "{:?}", base.edges);
        assert!(base.edges.iter().any(|e| (e.from, e.to) == (0, 2)), "{:?}", base.edges);
    }
}
