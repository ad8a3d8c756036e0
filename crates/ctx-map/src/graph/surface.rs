//! The package's public surface, which leads the overview: what its entry
//! files import, re-export or define as their own public names, and what
//! its modules pass on.

use ctxkeep_core::paths::PathRole;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::base::{self, Base, NONE};
use super::crates::Crates;
use super::language_family;
use crate::exports::JsModule;
use crate::index::IndexedFile;
use crate::tags::{DefaultExport, Kind};

/// A file that defines more public names than this is code, not a package's front door.
const MAX_SURFACE_DEFS: usize = 5;

/// Whether `file` is a package's or module's entry file (`__init__.py`,
/// `lib.rs`, `mod.rs`, `index.ts`) that mostly imports and re-exports: its
/// references are the package's public surface. One holding code of its own
/// (a `mod.rs` with the module's functions) references like any other file,
/// and so does the entry of a package its name keeps private (rich's
/// `_unicode_data/__init__.py`: what it imports is rich's business alone).
pub(super) fn is_surface(file: &IndexedFile) -> bool {
    let (folders, name) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
    if folders.split('/').any(|folder| folder.starts_with('_')) {
        return false;
    }
    let entry = match name.split_once('.') {
        Some(("__init__", "py")) => true,
        Some(("lib" | "mod", "rs")) => true,
        Some(("index", ext)) => matches!(ext, "ts" | "tsx" | "mts" | "js" | "jsx" | "mjs" | "cjs"),
        _ => false,
    };
    // Private state (rich's `_console`) and dunders (`__all__`) make no file code.
    let own = file.tags.defs.iter().filter(|d| !d.name.starts_with('_')).count();
    entry && own <= MAX_SURFACE_DEFS && !PathRole::of(&file.path).is_auxiliary()
}

/// Whether `file`'s own public definitions are the package's, named from its
/// top: an entry file's ([`is_surface`]), and a Rust crate root's however
/// much code it holds (reqwest's `lib.rs` and its `pub async fn get`).
pub(super) fn defines_surface(file: &IndexedFile) -> bool {
    let crate_root = file.lang == "rust"
        && (file.path == "src/lib.rs" || file.path.ends_with("/src/lib.rs"))
        && !PathRole::of(&file.path).is_auxiliary();
    crate_root || is_surface(file)
}

/// In the overview, the package's public surface comes first: every
/// definition an entry file ([`is_surface`]) imports or re-exports (`from
/// .helpers import url_for`, `pub use`, `export { x }`), or any file of the
/// package passes on (a Rust module with code of its own that says `pub use
/// self::into_response::IntoResponse`), is lifted by the best score,
/// so those lead, in the order of their own rank, and the rest follows
/// (`_private` names aside, whoever imports them). A
/// reader meets a package through what it exports: without this, internal
/// helpers with long specific names outrank short public names (`url_for`,
/// `request`, `command`).
///
/// An entry file's own public definitions ([`defines_surface`]), and those
/// of a module an entry file re-exports whole or a Rust library declares
/// `pub` from its root, are lifted alike when another
/// file uses them; returns what those that no file uses take.
/// The share of its lift the API of a workspace's crate takes when the facade
/// does not pass it on: a quarter, so that only what its users use far more
/// than the facade's comes before it.
const BESIDE_THE_FACADE: f64 = 0.25;

pub(super) fn lift_public_surface(files: &[IndexedFile], base: &Base, slot_rank: &mut [f64]) -> OwnLift {
    // Per file, once: there are far more edges than files.
    let surface: Vec<bool> = files.iter().map(is_surface).collect();
    // A test's or an example's look-alike of an exported name is none of the package's,
    // and what an example passes on is none of its surface.
    let auxiliary: Vec<bool> = files.iter().map(|f| PathRole::of(&f.path).is_auxiliary()).collect();
    let passes_on: Vec<bool> = files
        .iter()
        .zip(&auxiliary)
        .map(|(f, &aux)| !aux && f.tags.refs.iter().any(|r| r.exported > 0))
        .collect();
    // A Rust crate's exported macros are its surface wherever they are written (tracing's
    // `span!` and `info!` in `macros.rs`): `#[macro_export]` puts them at its root.
    let defs =
        files.iter().zip(&auxiliary).flat_map(|(f, &aux)| f.tags.defs.iter().map(move |d| (f, d, aux)));
    let exported_macros: Vec<u32> = defs
        .zip(&base.def_slots)
        .filter(|&((file, def, aux), &slot)| {
            !aux && slot != NONE && file.lang == "rust" && def.kind == Kind::Macro && def.is_rust_public()
        })
        .map(|(_, &slot)| slot)
        .collect();
    // A Rust library's public modules' public items are its API, named from its root
    // (crossterm's `pub mod event;` and `event::read`).
    let mut public_module = crate::map::visibility::in_public_module(files);
    // And a Python package's public modules its entry imports whole (structlog's `from
    // structlog import processors, stdlib`: `processors.TimeStamper` is its API), or all
    // of them if it imports none (starlette's: `from starlette.routing import Route`).
    for at in imported_modules(files, &surface).into_iter().chain(bare_packages_modules(files, &surface)) {
        public_module[at] = true;
    }
    if !surface.contains(&true)
        && !passes_on.contains(&true)
        && exported_macros.is_empty()
        && !public_module.contains(&true)
        && !files.iter().any(|f| defines_surface(f) && !f.tags.reexports_all.is_empty())
    {
        return OwnLift { lift: 0.0, files: Vec::new() };
    }
    let family: Vec<&str> = files.iter().map(|f| language_family(&f.lang)).collect();
    // Each name id's name.
    let mut names: Vec<&str> = Vec::new();
    let defs = files.iter().flat_map(|f| &f.tags.defs).zip(&base.def_names);
    for (def, id) in defs.filter(|&(_, &id)| id != NONE).map(|(d, &id)| (d, id as usize)) {
        if names.len() <= id {
            names.resize(id + 1, "");
        }
        names[id] = &def.name;
    }
    let name_of = |slot: u32| names.get(base.slot_names[slot as usize] as usize).copied().unwrap_or("");
    let best = slot_rank.iter().copied().fold(0.0, f64::max);
    let from_surface: Vec<&base::Edge> = base
        .edges
        .iter()
        .filter(|e| {
            let from = e.from as usize;
            surface.get(from) == Some(&true) || passes_on.get(from) == Some(&true)
        })
        .collect();
    // The likeliest definers of each name an entry file uses: a far look-alike (another
    // crate's `struct Workspace`) shares the edge, not the export.
    let mut likeliest: HashMap<(u32, u32), f64> = HashMap::default();
    for edge in &from_surface {
        let most = likeliest.entry((edge.from, base.slot_names[edge.slot as usize])).or_default();
        *most = most.max(edge.weight);
    }
    let mut public = vec![false; slot_rank.len()];
    // Of a Rust library's public modules (crossterm's `event::read`).
    let mut module_public = vec![false; slot_rank.len()];
    for slot in exported_macros {
        public[slot as usize] = true;
    }
    for edge in from_surface {
        let (from, to) = (edge.from as usize, edge.to as usize);
        let most = likeliest.get(&(edge.from, base.slot_names[edge.slot as usize])).copied().unwrap_or(0.0);
        // A Python `__init__.py` annotating with `str` re-exports no Rust `fn str`.
        if family.get(from) != family.get(to) || auxiliary[to] || edge.weight < most / 2.0 {
            continue;
        }
        // Type declarations (`types/instance.d.ts`) describe the code; they come after it,
        // exported or not.
        if crate::exports::declares_types_of_code(files, &files[to].path) {
            continue;
        }
        // A Python package imports its surface from its own modules: the module name
        // of rich's `from rich.console import Console` is not `tools/profile.py`'s
        // global `console`.
        if surface[from]
            && files[from].lang == "python"
            && !within_package(&files[from].path, &files[to].path)
        {
            continue;
        }
        // What a file defines and exports itself (`function validate …; module.exports =
        // { validate }`) is its own: a look-alike elsewhere is none of the surface.
        let name = name_of(edge.slot);
        // (An `impl Trait for ProgressBar` in the file's tests defines no `ProgressBar`, nor
        // does rand's `lib.rs` define the `rng` it passes on by a helper in its `mod test`.)
        let defs = &files[from].tags.defs;
        if defs.iter().any(|d| d.name == name && d.kind.defines_name() && d.parent.is_none()) {
            continue;
        }
        // Rust re-exports only what is `pub`: a crate-private look-alike (`pub(super) enum
        // Decision` beside the exported `pub struct Decision`) is none of its surface.
        let rust_public = |d: &crate::tags::Def| d.name == name && d.is_rust_public();
        if files[to].lang == "rust" && !files[to].tags.defs.iter().any(rust_public) {
            continue;
        }
        // What it imports or names bare (`from .helpers import url_for`), not what it calls
        // on an object (`current_app.json.dumps(…)`); and no `_private` name.
        let refs = &files[from].tags.refs;
        let found = refs.binary_search_by(|r| r.name.as_str().cmp(name)).ok().map(|at| &refs[at]);
        // An entry file's bare uses are its surface; another file's only what it passes on.
        let shown = found.is_some_and(|r| if surface[from] { r.bare > 0 } else { r.exported > 0 });
        if shown && !name.starts_with('_') {
            public[edge.slot as usize] = true;
        }
    }
    // What an entry file exports of other modules is the package's: express's `index.js`
    // (`module.exports = require('./lib/express')`) exports `lib/express.js`'s
    // `createApplication`, zustand's `index.ts` (`export * from './vanilla'`) its `createStore`.
    let (defaults, whole) = entry_exports(files, &surface, &auxiliary, &mut public_module);
    // An entry file's own public definitions are the package's as much as what it imports
    // (urllib3's `def request` in `__init__.py`, its front door since 2.0).
    let mut first = 0;
    for (i, file) in files.iter().enumerate() {
        let defs = &file.tags.defs;
        let slots = &base.def_slots[first..first + defs.len()];
        first += defs.len();
        for (_, name) in defaults.iter().filter(|(at, _)| *at as usize == i) {
            for (_, &slot) in defs.iter().zip(slots).filter(|(d, slot)| **slot != NONE && d.name == *name) {
                public[slot as usize] = true;
            }
        }
        let own_public = defines_surface(file) || whole[i];
        if own_public || (public_module[i] && !auxiliary[i]) {
            let module = JsModule::of(file);
            for (def, &slot) in defs.iter().zip(slots) {
                if slot != NONE && shows(file, def, module.as_ref(), own_public) {
                    let lifted = if own_public { &mut public } else { &mut module_public };
                    lifted[slot as usize] = true;
                }
            }
        }
    }
    // Among them, what more files use comes first: their own rank would put what the
    // package calls internally, by long names, before what its users call (`url_for`).
    let mut users = vec![0u32; slot_rank.len()];
    let mut outside_users = vec![0u32; slot_rank.len()];
    let mut outside_weight = vec![0.0; slot_rank.len()];
    for edge in &base.edges {
        users[edge.slot as usize] += 1;
        if auxiliary.get(edge.from as usize) == Some(&true) {
            outside_users[edge.slot as usize] += 1;
            outside_weight[edge.slot as usize] += edge.weight;
        }
    }
    let outside = Outside { users: &outside_users, weight: &outside_weight };
    let members = public_members(files, base, &auxiliary, (&public, &module_public), &users, outside);
    // A workspace's crates its facade does not pass on come after the facade's API.
    let beside = Crates::of(files).beside_the_facade(files);
    let mut slot_beside = vec![false; slot_rank.len()];
    for edge in &base.edges {
        slot_beside[edge.slot as usize] = beside[edge.to as usize];
    }
    for (slot, rank) in slot_rank.iter_mut().enumerate() {
        let lift = if public[slot] {
            f64::from(1 + users[slot])
        } else if module_public[slot] {
            // What a public module defines is counted by its users outside the code (the
            // tests, examples, docs): a workspace's lower crate (regex-automata, every
            // module `pub`) would otherwise bury the main crate's `Regex` under its `Config`s,
            // which its own code uses everywhere.
            f64::from(1 + outside_users[slot])
        } else {
            members.get(&(slot as u32)).copied().unwrap_or(0.0)
        };
        *rank += best * lift * if slot_beside[slot] { BESIDE_THE_FACADE } else { 1.0 };
    }
    let own = |(i, file): (usize, &IndexedFile)| match () {
        _ if beside[i] => Own::Not,
        _ if whole[i] || defines_surface(file) => Own::AtTheFront,
        _ if public_module[i] && !auxiliary[i] => Own::ByModule,
        _ => Own::Not,
    };
    OwnLift { lift: best * 1.5, files: files.iter().enumerate().map(own).collect() }
}

/// Whether `def`, one of `file`'s own public definitions ([`is_own_public`]), is
/// the package's: all of them in a file at its front door, and but for a
/// Python module's constants in a module it shows whole: those are its values,
/// not its API (typer's `colors.RED` and eighteen more).
fn shows(file: &IndexedFile, def: &crate::tags::Def, module: Option<&JsModule>, at_the_front: bool) -> bool {
    let value = !at_the_front && file.lang == "python" && def.kind == Kind::Constant;
    !value && is_own_public(file, def, module)
}

/// The public modules (no `_private` ones) a Python package's entry files
/// import whole: `from structlog import stdlib`, `from . import json`.
fn imported_modules(files: &[IndexedFile], surface: &[bool]) -> Vec<usize> {
    let by_path: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let entries = files.iter().zip(surface).filter(|(f, is)| **is && f.lang == "python").map(|(f, _)| f);
    let mut found = Vec::new();
    for entry in entries {
        let folder = entry.path.rsplit_once('/').map_or(String::new(), |(folder, _)| format!("{folder}/"));
        let imports = entry.tags.refs.iter().filter(|r| r.from.is_some() && r.bare > 0);
        for name in imports.map(|r| &r.name).filter(|name| !name.starts_with('_')) {
            let modules = [format!("{folder}{name}.py"), format!("{folder}{name}/__init__.py")];
            found.extend(modules.iter().filter_map(|m| by_path.get(m.as_str()).copied()));
        }
    }
    found
}

/// The public modules (none with a `_private` part) of the Python packages
/// whose entry file imports nothing (starlette's `__init__.py` holds only its
/// `__version__`): their users import from the modules themselves, so each
/// is as public as one the entry imported. Of top-level packages only: a
/// subpackage's bare `__init__.py` says nothing of what its package exports.
fn bare_packages_modules(files: &[IndexedFile], surface: &[bool]) -> Vec<usize> {
    let folder = |path: &str| path.rsplit_once('/').map(|(folder, _)| folder.to_string());
    let inits: HashSet<String> =
        files.iter().filter(|f| f.path.ends_with("__init__.py")).filter_map(|f| folder(&f.path)).collect();
    let top_level = |package: &str| folder(package).is_none_or(|parent| !inits.contains(&parent));
    let bare: Vec<String> = files
        .iter()
        .zip(surface)
        .filter(|(f, is)| **is && f.lang == "python" && f.path.ends_with("__init__.py"))
        .filter(|(f, _)| f.tags.refs.iter().all(|r| r.from.is_none()))
        .filter_map(|(f, _)| folder(&f.path))
        .filter(|package| top_level(package))
        .collect();
    let mut found = Vec::new();
    for package in &bare {
        for (i, file) in files.iter().enumerate().filter(|(_, f)| f.lang == "python") {
            let Some(inside) = file.path.strip_prefix(package.as_str()).and_then(|p| p.strip_prefix('/'))
            else {
                continue;
            };
            if !inside.split('/').any(|part| part.starts_with('_'))
                && !PathRole::of(&file.path).is_auxiliary()
            {
                found.push(i);
            }
        }
    }
    found
}

/// What the public definitions no file uses take in the overview, and of which files.
pub(super) struct OwnLift {
    /// Half-way between the best definition left unlifted and the least lifted one (0
    /// without a surface).
    pub lift: f64,
    /// Per file, how its own public definitions are the package's (none: no file's).
    pub files: Vec<Own>,
}

/// How a file's own public definitions are its package's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Own {
    Not,
    /// An entry file's, or a module's its entry passes on whole.
    AtTheFront,
    /// A public module's (Rust's `pub mod`, a module a Python package imports whole).
    ByModule,
}

impl OwnLift {
    /// Whether any of `files[at]`'s own public definitions are the package's.
    pub(super) fn of(&self, at: usize) -> bool {
        self.lift > 0.0 && matches!(self.files.get(at), Some(Own::AtTheFront | Own::ByModule))
    }

    /// Whether `def`, of `files[at]`, is among the package's public definitions.
    pub(super) fn shows(
        &self,
        at: usize,
        file: &IndexedFile,
        def: &crate::tags::Def,
        module: Option<&JsModule>,
    ) -> bool {
        match self.files.get(at).filter(|_| self.lift > 0.0) {
            Some(Own::AtTheFront) => shows(file, def, module, true),
            Some(Own::ByModule) => shows(file, def, module, false),
            Some(Own::Not) | None => false,
        }
    }
}

/// What the entry files ([`is_surface`], and a Rust crate's root) pass on of
/// other modules of the package: the definitions their default exports name,
/// by file and name, and per file whether they re-export it whole (zustand's
/// `index.ts`, `export * from './vanilla'`; regex's `lib.rs`, `pub use
/// crate::regex::string::*;`), so that its public definitions are the
/// package's as an entry file's own are. What a Rust library's public module
/// re-exports whole is as public as the module (`public_module`, updated).
fn entry_exports<'a>(
    files: &'a [IndexedFile],
    surface: &[bool],
    auxiliary: &[bool],
    public_module: &mut [bool],
) -> (Vec<(u32, &'a str)>, Vec<bool>) {
    let mut whole = vec![false; files.len()];
    let exports = |i: usize| {
        let tags = &files[i].tags;
        tags.default_export.is_some() || !tags.reexports_all.is_empty()
    };
    let entry = |i: &usize| (surface[*i] || defines_surface(&files[*i])) && exports(*i);
    let module = |i: &usize| public_module[*i] && !files[*i].tags.reexports_all.is_empty();
    if !(0..files.len()).any(|i| entry(&i) || module(&i)) {
        return (Vec::new(), whole);
    }
    let modules = super::imports::Modules::new(files);
    let mut defaults = Vec::new();
    for i in (0..files.len()).filter(entry) {
        defaults.extend(match files[i].tags.default_export.as_ref() {
            Some(DefaultExport::Name(name)) => Some((i as u32, name.as_str())),
            Some(DefaultExport::Module(module)) => modules.default_export(i, module),
            None => None,
        });
        for file in modules.reexported_whole(i) {
            whole[file as usize] = !auxiliary[file as usize];
        }
    }
    for i in (0..files.len()).filter(module).collect::<Vec<_>>() {
        for file in modules.reexported_whole(i) {
            public_module[file as usize] = !auxiliary[file as usize];
        }
    }
    defaults.retain(|&(at, _)| !auxiliary[at as usize]);
    (defaults, whole)
}

/// Share of its type's lift the most used member of a public type takes; the
/// others take their share of that by their users.
const MEMBER: f64 = 0.5;
/// How many members of each public type are lifted fully, most used first; the
/// others that users call, by at most [`MORE_MEMBERS`].
const MEMBERS_PER_TYPE: usize = 6;
/// The most a public type's member past its first [`MEMBERS_PER_TYPE`] is lifted, in
/// the best unlifted definition's score: enough to pass trait impls and helpers, not
/// the package's other types (rich's `ConsoleOptions`, `Group`).
const MORE_MEMBERS: f64 = 0.02;

/// The slots of the public members of the public surface's types (reqwest's
/// `Response::text` and `Client::get`, marshmallow's `Schema.dump`), each with
/// its lift in users: up to [`MEMBER`] of its type's, by how many of the tests,
/// examples and docs that call its type's members call it, so a type leads its
/// members and they keep their order; and at most [`MEMBER`] of what a public
/// name as many files use takes (click's `Parameter.get_help_record`, which
/// two tests call, follows `progressbar`). Without them, the methods
/// called by common names (`get`, `send`, `load`) ranked below every
/// uniquely named one (`extensions_mut`): the references to a common name are
/// shared among its many definers. The code's own calls are no measure of a
/// member's use: reqwest's `Request::headers` is called all over the crate by
/// the `http` types' methods of that name.
///
/// Of types of one name (reqwest's `Client` in `async_impl`, `blocking` and
/// `wasm`), only the most used one's members: the others repeat them.
/// Per name slot, the uses of it outside the code (the tests, examples, docs).
#[derive(Clone, Copy)]
struct Outside<'a> {
    /// How many such files use it.
    users: &'a [u32],
    /// The weight of their uses, which grows with how often they use it and
    /// is small for a name the standard library also answers (`dt.isoweekday()`).
    weight: &'a [f64],
}

fn public_members(
    files: &[IndexedFile],
    base: &Base,
    auxiliary: &[bool],
    (public, module_public): (&[bool], &[bool]),
    users: &[u32],
    outside: Outside,
) -> HashMap<u32, f64> {
    // Per public type name, (passed on, users, slot) of the most used type so named, what
    // the package passes on from its root first (regex's `Regex`, not regex-automata's).
    let mut types: HashMap<u32, (bool, u32, u32)> = HashMap::default();
    // Each public type's name id by its name, for the impls whose name holds generics.
    let mut type_ids: HashMap<&str, u32> = HashMap::default();
    let defs = files.iter().flat_map(|f| &f.tags.defs).zip(base.def_slots.iter().zip(&base.def_names));
    for (def, (&slot, &name)) in defs {
        let is_type = matches!(
            def.kind,
            Kind::Class | Kind::Struct | Kind::Enum | Kind::Trait | Kind::Interface | Kind::Type
        );
        if is_type && slot != NONE && (public[slot as usize] || module_public[slot as usize]) {
            let most = types.entry(name).or_insert((false, 0, slot));
            *most = (*most).max((public[slot as usize], users[slot as usize], slot));
            type_ids.insert(&def.name, name);
        }
    }
    if types.is_empty() {
        return HashMap::default();
    }
    // (type name, users, slot, its type's users, weight of its uses) of each public member of a public type.
    let mut candidates: Vec<(u32, u32, u32, u32, f64)> = Vec::new();
    let mut first = 0;
    for (file, &aux) in files.iter().zip(auxiliary) {
        let defs = &file.tags.defs;
        let range = first..first + defs.len();
        first = range.end;
        if aux {
            continue;
        }
        let (slots, names) = (&base.def_slots[range.clone()], &base.def_names[range.clone()]);
        let owned_slots = &base.owned_slots[range];
        for (d, def) in defs.iter().enumerate() {
            let Some(parent) = def.parent.map(|p| p as usize).filter(|&p| p < defs.len()) else {
                continue;
            };
            // An `impl Client` names its type as the struct does: it is the most used
            // one's when the file's own `Client` is (or the file has none). So does chrono's
            // `impl<Tz: TimeZone> DateTime<Tz>`, by its name without the generics.
            let type_name = match names[parent] {
                NONE => defs[parent].name.split('<').next().and_then(|n| type_ids.get(n.trim())).copied(),
                id => Some(id),
            };
            let Some(type_name) = type_name else { continue };
            let Some(&(_, type_users, type_slot)) = types.get(&type_name) else { continue };
            let of_most_used = slots[parent] == NONE || slots[parent] == type_slot;
            // Uses of its name (`.text()`), or of it on its type (`Workspace::open(…)`).
            let (named, owned) = (slots[d], owned_slots[d]);
            let by = |slot: u32| if slot == NONE { 0 } else { outside.users[slot as usize] };
            let users = by(named).max(by(owned));
            let slot = if named != NONE { named } else { owned };
            let weight = outside.weight.get(slot as usize).copied().unwrap_or(0.0);
            if of_most_used
                && users > 0
                && defs[parent].kind.holds_methods()
                && is_public_member(file, def, defs)
            {
                candidates.push((type_name, users, slot, type_users, weight));
            }
        }
    }
    // Per type, its most used members: rich's `Console` has forty that its tests call,
    // and they would crowd out the rest of the package. Most used by the weight of their
    // uses, not by how many files make them: arrow's tests call `Arrow.humanize` hundreds
    // of times in one file, `isoweekday()` a few times in two, on datetimes mostly.
    candidates.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then(b.4.total_cmp(&a.4)).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2))
    });
    let mut members: HashMap<u32, f64> = HashMap::default();
    for of_type in candidates.chunk_by(|a, b| a.0 == b.0) {
        let most_users = f64::from(of_type[0].1);
        for (nth, &(_, users, slot, type_users, _)) in of_type.iter().enumerate() {
            // No more than a public name as many files use would take.
            let lift = MEMBER
                * (f64::from(1 + type_users) * f64::from(users) / most_users).min(f64::from(1 + users));
            // Past the first few, a little: before trait impls and helpers (bytes' `slice` and
            // `reserve` before forty `PartialOrd` impls when a larger map has the room).
            let lift = if nth < MEMBERS_PER_TYPE { lift } else { lift.min(MORE_MEMBERS) };
            let most = members.entry(slot).or_default();
            *most = most.max(lift);
        }
    }
    members
}

/// Whether `def` is a member of a type among `defs` that its users cannot call
/// (a Rust method without `pub`, a Python `_helper`); not a trait impl's.
pub(super) fn private_member(file: &IndexedFile, def: &crate::tags::Def, defs: &[crate::tags::Def]) -> bool {
    def.parent(defs).is_some_and(|p| p.kind.holds_methods())
        && !def.implements_trait(defs)
        && !def.is_constructor()
        && !crate::outline::is_dunder(&def.name)
        && !is_public_member(file, def, defs)
}

/// Whether `def`, a member of a type among `defs`, is one its users call: public as
/// its language says, and no trait impl's (`fmt`, `from`: the trait's, wherever
/// they are), constructor or dunder.
fn is_public_member(file: &IndexedFile, def: &crate::tags::Def, defs: &[crate::tags::Def]) -> bool {
    if def.name.starts_with('_') || def.name.starts_with('#') || def.is_constructor() {
        return false;
    }
    match file.lang.as_str() {
        "rust" => {
            !def.implements_trait(defs)
                && (def.is_rust_public() || def.parent(defs).is_some_and(|p| p.kind == Kind::Trait))
        }
        "python" => true,
        _ => {
            let signature = def.signature.trim_start();
            !["private ", "protected ", "static #"].iter().any(|hidden| signature.starts_with(hidden))
        }
    }
}

/// Whether `path` lies in the package whose entry file is `entry` (its folder, or below).
fn within_package(entry: &str, path: &str) -> bool {
    entry
        .rsplit_once('/')
        .is_none_or(|(folder, _)| path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/')))
}

/// Whether `def`, in an entry file, is a public definition of its own: at its
/// top level, and public as its language says (a Python name without a
/// leading `_`, Rust's `pub`, what a JavaScript module exports). An inline
/// module (`pub mod future { … }`) is none: its line says only its name, its
/// items say what it is.
pub(crate) fn is_own_public(file: &IndexedFile, def: &crate::tags::Def, module: Option<&JsModule>) -> bool {
    if def.parent.is_some()
        || !def.kind.defines_name()
        || def.kind == Kind::Module
        || def.name.starts_with('_')
    {
        return false;
    }
    match file.lang.as_str() {
        "python" => true,
        "rust" => def.is_rust_public(),
        _ => module.is_some_and(|m| crate::exports::is_declaration(def) && !m.hides(def)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Focus, Graph};
    use crate::index::{IndexedFile, python_file};
    use crate::lang::Lang;
    use rustc_hash::FxHashSet as HashSet;

    fn rust(path: &str, source: &str) -> IndexedFile {
        IndexedFile::parsed(path, Lang::Rust, source)
    }

    /// The overview's score of `file`'s definition `name` (the `nth` so named).
    fn score(files: &[IndexedFile], file: usize, name: &str, nth: usize) -> f64 {
        let ranking = Graph::new(files, &HashSet::default()).rank(&Focus::default());
        let defs = &files[file].tags.defs;
        let d = (0..defs.len()).filter(|&d| defs[d].name == name).nth(nth).unwrap();
        ranking.def_rank[file][d]
    }

    #[test]
    fn the_members_a_public_type_s_users_call_lead_its_uniquely_named_ones() {
        // reqwest's shape: the crate passes on `Response`, whose `text` is a common name
        // (a multipart `Part` has one too) that the tests call, and whose `extensions_mut`
        // only the crate's own code calls, as the `http` types' method of that name;
        // `blocking::Response` is a less used look-alike with the same members. The
        // crate root defines `get` beside more code than an entry file's handful.
        let own: String = (0..8).map(|i| format!("pub fn helper_{i}() {{}}\n")).collect();
        let files = [
            rust("src/lib.rs", &format!("pub use self::response::Response;\npub fn get() {{}}\n{own}")),
            rust(
                "src/response.rs",
                "pub struct Response;\nimpl Response {\n    pub fn text(&self) {}\n    \
                 pub fn extensions_mut(&mut self) {}\n    fn text_inner(&self) {}\n}\n\
                 pub struct Builder;\nimpl Builder {\n    pub(crate) fn text(&self) {}\n}\n",
            ),
            rust("src/multipart.rs", "pub struct Part;\nimpl Part {\n    pub fn text(self) {}\n}\n"),
            rust(
                "src/blocking/response.rs",
                "pub struct Response;\nimpl Response {\n    pub fn text(&self) {}\n}\n",
            ),
            rust(
                "src/connect.rs",
                "use crate::response::Response;\nfn a(r: Response) {\n    r.extensions_mut();\n}\n\
                 fn b(r: Response) {\n    r.extensions_mut();\n    r.text_inner();\n}\n",
            ),
            rust(
                "src/redirect.rs",
                "use crate::response::Response;\nfn c(r: Response) {\n    r.extensions_mut();\n}\n",
            ),
            rust(
                "tests/client.rs",
                "fn t() {\n    reqwest::get();\n    let r: Response = x();\n    r.text();\n}\n",
            ),
            rust("tests/redirect.rs", "fn t(r: Response) {\n    r.text();\n}\n"),
        ];
        let files = &files;
        let text = score(files, 1, "text", 0);
        assert!(text > score(files, 1, "extensions_mut", 0) * 10.0, "text {text}");
        // Neither a private member nor the look-alike type's is lifted.
        assert!(text > score(files, 1, "text_inner", 0) * 10.0);
        assert!(text > score(files, 1, "text", 1) * 10.0, "a private namesake of the file's");
        assert!(text > score(files, 3, "text", 0) * 10.0);
        // The type leads its members.
        assert!(score(files, 1, "Response", 0) > text);
        // The crate root's own public function is the crate's.
        assert!(score(files, 0, "get", 0) > score(files, 1, "extensions_mut", 0) * 10.0);
    }

    #[test]
    fn a_library_s_public_modules_are_its_surface_by_their_users_outside_the_code() {
        // crossterm's shape: `lib.rs` declares `pub mod event;`, whose `read` and `Event`
        // the examples use; the crate's own code uses its private `Waker` and the public
        // module's `Config` all over, and its binary's `pub mod` is no one's API.
        let internal = "use crate::waker::Waker;\nuse crate::event::Config;\n\
                        fn f(w: Waker, c: Config) {\n    w.wake();\n}\n";
        let mut files = vec![
            rust("src/lib.rs", "pub mod event;\nmod waker;\nmod source;\nmod parse;\nmod sys;\n"),
            rust(
                "src/event.rs",
                "pub fn read() -> Event {\n    todo!()\n}\npub enum Event { Key }\npub struct Config;\n",
            ),
            rust("src/waker.rs", "pub(crate) struct Waker;\n"),
            rust("src/source.rs", internal),
            rust("src/parse.rs", internal),
            rust("src/sys.rs", internal),
            rust("examples/demo.rs", "use crossterm::event::{read, Event};\nfn main() {\n    read();\n}\n"),
            rust("examples/keys.rs", "fn main() {\n    let e: Event = crossterm::event::read();\n}\n"),
        ];
        let score_of = |files: &[IndexedFile], file: usize, name: &str| score(files, file, name, 0);
        let read = score_of(&files, 1, "read");
        assert!(read > score_of(&files, 2, "Waker") * 2.0, "read {read}");
        assert!(score_of(&files, 1, "Event") > score_of(&files, 2, "Waker") * 2.0);
        // What the examples use leads what only the code does.
        assert!(read > score_of(&files, 1, "Config"), "read {read}");
        // Declared by a binary's root, the same module is no surface.
        files[0] = rust("src/main.rs", "pub mod event;\nmod waker;\nmod source;\nmod parse;\nmod sys;\n");
        assert!(score_of(&files, 1, "read") < score_of(&files, 2, "Waker"));
    }

    #[test]
    fn a_workspace_s_facade_leads_the_crates_it_does_not_pass_on() {
        // regex's shape: the root crate is the one the others are named after; its
        // `Regex` is used by its tests, regex-automata's `meta::Regex` by as many of its own.
        let lower_test = "use regex_automata::meta::{Config, Regex};\nfn t(r: Regex, c: Config) {}\n";
        let mut files = vec![
            rust("src/lib.rs", "mod regex;\npub use crate::regex::Regex;\n"),
            rust("src/regex.rs", "pub struct Regex;\n"),
            rust("regex-automata/src/lib.rs", "pub mod meta;\n"),
            rust("regex-automata/src/meta.rs", "pub struct Regex;\npub struct Config;\n"),
            rust("regex-automata/tests/a.rs", lower_test),
            rust("regex-automata/tests/b.rs", lower_test),
            rust("regex-automata/tests/c.rs", lower_test),
            rust("regex-syntax/src/lib.rs", "pub struct Hir;\n"),
            rust("tests/a.rs", "use regex::Regex;\nfn t(r: Regex) {}\n"),
            rust("tests/b.rs", "use regex::Regex;\nfn t(r: Regex) {}\n"),
            rust("tests/c.rs", "use regex::Regex;\nfn t(r: Regex) {}\n"),
        ];
        let (facade, lower) = (score(&files, 1, "Regex", 0), score(&files, 3, "Regex", 0));
        assert!(facade > lower * 2.0, "facade {facade}, lower {lower}");
        assert!(facade > score(&files, 3, "Config", 0) * 2.0, "facade {facade}");
        // Passed on by the facade, the lower crate's API is the facade's.
        files[0] =
            rust("src/lib.rs", "mod regex;\npub use crate::regex::Regex;\npub use regex_automata::meta;\n");
        assert!(score(&files, 3, "Regex", 0) > lower * 2.0);
    }

    #[test]
    fn the_public_modules_a_python_package_imports_whole_are_its_surface() {
        // structlog's shape: `__init__.py` imports `processors` and `colors` whole, and
        // names from its private `_config`, whose helpers its own code uses all over.
        let internal = "from structlog._config import _helper_with_a_long_name\n_helper_with_a_long_name()\n";
        let mut files = vec![
            python_file(
                "src/structlog/__init__.py",
                "from structlog import colors, processors\nfrom structlog._config import configure\n",
            ),
            python_file(
                "src/structlog/_config.py",
                "def configure():\n    pass\ndef _helper_with_a_long_name():\n    pass\n",
            ),
            python_file("src/structlog/processors.py", "class TimeStamper:\n    pass\n"),
            python_file("src/structlog/colors.py", "RED = 'red'\n"),
            python_file("src/structlog/_base.py", internal),
            python_file("src/structlog/stdlib.py", internal),
            python_file(
                "tests/test_processors.py",
                "from structlog.processors import TimeStamper\nTimeStamper()\n",
            ),
        ];
        let stamper = score(&files, 2, "TimeStamper", 0);
        assert!(stamper > score(&files, 1, "_helper_with_a_long_name", 0) * 2.0, "stamper {stamper}");
        // A module's constants are its values.
        assert!(score(&files, 3, "RED", 0) < score(&files, 1, "_helper_with_a_long_name", 0));
        // Not imported whole, the module is the package's business.
        files[0] = python_file("src/structlog/__init__.py", "from structlog._config import configure\n");
        assert!(score(&files, 2, "TimeStamper", 0) < stamper / 2.0);
    }

    #[test]
    fn what_a_library_passes_on_by_a_glob_is_its_surface() {
        // regex's `lib.rs`: `pub use crate::{regex::string::*};` from a private module;
        // and a public module's glob (`pub mod style;`, `pub use self::types::*;`).
        let internal = "use crate::cache::Cache;\nfn f(c: Cache) {}\n";
        let files = [
            rust(
                "src/lib.rs",
                "pub use crate::{error::Error, regex::string::*};\nmod regex;\npub mod style;\n",
            ),
            rust("src/regex/mod.rs", "pub(crate) mod string;\n"),
            rust("src/regex/string.rs", "pub struct Regex;\n"),
            rust("src/style.rs", "pub use self::types::*;\nmod types;\n"),
            rust("src/style/types.rs", "pub enum Color { Red }\n"),
            rust("src/cache.rs", "pub(crate) struct Cache;\n"),
            rust("src/a.rs", internal),
            rust("src/b.rs", internal),
            rust("src/c.rs", internal),
        ];
        let cache = score(&files, 5, "Cache", 0);
        // Unused, they follow what files use of the surface, but lead the rest.
        assert!(score(&files, 2, "Regex", 0) > cache, "Regex against {cache}");
        assert!(score(&files, 4, "Color", 0) > cache, "Color against {cache}");
    }

    #[test]
    fn a_test_helper_of_the_crate_root_takes_nothing_of_what_it_passes_on() {
        // rand's `lib.rs` passes on `rngs::thread::rng` and has a `fn rng(seed)` in its tests.
        let internal = "use crate::util::helper;\nfn f() {\n    helper();\n}\n";
        let files = [
            rust(
                "src/lib.rs",
                "pub use crate::rngs::thread::rng;\nmod util;\nmod a;\nmod b;\n\
                 #[cfg(test)]\nmod test {\n    pub fn rng(seed: u64) {}\n}\n",
            ),
            rust("src/rngs/thread.rs", "pub fn rng() -> ThreadRng {\n    todo!()\n}\n"),
            rust("src/util.rs", "pub(crate) fn helper() {}\n"),
            rust("src/a.rs", internal),
            rust("src/b.rs", internal),
        ];
        let helper = score(&files, 2, "helper", 0);
        assert!(score(&files, 1, "rng", 0) > helper, "rng against {helper}");
    }

    #[test]
    fn a_generic_type_s_methods_its_users_call_are_lifted_too() {
        // chrono's `impl<Tz: TimeZone> DateTime<Tz>`: its name holds the generics.
        let own: String = (0..8).map(|i| format!("pub fn helper_{i}() {{}}\n")).collect();
        let internal = "use crate::datetime::DateTime;\nfn f(d: DateTime<Utc>) {\n    d.offset_inner();\n}\n";
        let test = "fn t() {\n    let d: DateTime<Utc> = now();\n    d.timestamp();\n}\n";
        let files = [
            rust("src/lib.rs", &format!("pub use crate::datetime::DateTime;\nmod datetime;\n{own}")),
            rust(
                "src/datetime.rs",
                "pub struct DateTime<Tz: TimeZone> {\n    tz: Tz,\n}\nimpl<Tz: TimeZone> DateTime<Tz> {\n    \
                 pub fn timestamp(&self) {}\n    pub fn offset_inner(&self) {}\n}\n",
            ),
            rust("src/a.rs", internal),
            rust("src/b.rs", internal),
            rust("tests/one.rs", test),
            rust("tests/two.rs", test),
        ];
        let inner = score(&files, 1, "offset_inner", 0);
        // What its tests call leads what only the code does (lifted: 0.51 against 0.12; not: 0.003).
        assert!(score(&files, 1, "timestamp", 0) > inner * 2.0, "against {inner}");
    }

    #[test]
    fn an_entry_file_s_own_function_its_users_call_ranks_as_what_it_imports() {
        // urllib3's shape: `__init__.py` imports `PoolManager` and defines `request`,
        // which the tests call as often as they make a pool and call its `urlopen`.
        let mut files = vec![
            python_file(
                "pkg/__init__.py",
                "from .poolmanager import PoolManager\ndef request(method, url):\n    return PoolManager().urlopen(url)\n",
            ),
            python_file(
                "pkg/poolmanager.py",
                "class PoolManager:\n    def urlopen(self, url):\n        pass\n",
            ),
        ];
        for test in 0..5 {
            let source =
                "import pkg\ndef test():\n    pkg.request('GET', 'x')\n    pkg.PoolManager().urlopen('x')\n";
            files.push(python_file(&format!("tests/test_{test}.py"), source));
        }
        let request = score(&files, 0, "request", 0);
        assert!(request > score(&files, 1, "urlopen", 0), "{request}");
        assert!(score(&files, 1, "PoolManager", 0) > score(&files, 1, "urlopen", 0));
    }

    #[test]
    fn only_a_type_s_most_used_members_are_lifted() {
        // rich's `Console` shape: seven public methods its tests call, each by fewer
        // tests than the one before; the seventh is lifted a little, past the package's helpers.
        let methods: String = (0..7).map(|i| format!("    def method_{i}(self):\n        pass\n")).collect();
        let mut files = vec![
            python_file("pkg/__init__.py", "from .console import Console\n"),
            python_file("pkg/console.py", &format!("class Console:\n{methods}")),
            // A helper its code calls, and a trait-like protocol every type implements.
            python_file("pkg/_cells.py", "def cell_len(text):\n    return 1\n"),
            python_file(
                "pkg/text.py",
                "from ._cells import cell_len\ndef wrap(t):\n    return cell_len(t)\n",
            ),
        ];
        for test in 0..7 {
            let calls: String = (test..7).map(|i| format!("    c.method_{i}()\n")).collect();
            let source = format!("from pkg import Console\ndef test():\n    c = Console()\n{calls}");
            files.push(python_file(&format!("tests/test_{test}.py"), &source));
        }
        let helper = score(&files, 2, "cell_len", 0);
        let score = |name: &str| score(&files, 1, name, 0);
        assert!(score("method_6") > score("method_1"), "the most used first");
        assert!(score("method_1") > score("method_0") * 10.0, "the seventh is not lifted fully");
        let seventh = score("method_0");
        assert!(seventh > helper * super::MORE_MEMBERS, "but a little: {seventh} against {helper}");
    }

    #[test]
    fn a_member_one_test_file_calls_all_over_is_among_the_most_used() {
        // arrow's shape: `test_arrow.py` calls `Arrow.humanize` hundreds of times; each of
        // six other methods is called once, in two test files.
        let methods: String = ["humanize", "a_0", "a_1", "a_2", "a_3", "a_4", "a_5"]
            .iter()
            .map(|m| format!("    def {m}(self):\n        pass\n"))
            .collect();
        let mut files = vec![
            python_file("pkg/__init__.py", "from .arrow import Arrow\n"),
            python_file("pkg/arrow.py", &format!("class Arrow:\n{methods}")),
        ];
        let calls: String = (0..40).map(|_| "    a.humanize()\n").collect();
        files.push(python_file(
            "tests/test_arrow.py",
            &format!("from pkg import Arrow\ndef test():\n{calls}"),
        ));
        for test in ["x", "y"] {
            let calls: String = (0..6).map(|i| format!("    a.a_{i}()\n")).collect();
            let source = format!("from pkg import Arrow\ndef test():\n    a = Arrow()\n{calls}");
            files.push(python_file(&format!("tests/test_{test}.py"), &source));
        }
        let score = |name: &str| score(&files, 1, name, 0);
        assert!(score("humanize") > score("a_5"), "{} against {}", score("humanize"), score("a_5"));
    }
}
