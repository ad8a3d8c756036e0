//! The package's public surface, which leads the overview: what its entry
//! files import, re-export or define as their own public names, and what
//! its modules pass on.

use ctxkeep_core::paths::PathRole;
use rustc_hash::FxHashMap as HashMap;

use super::base::{self, Base, NONE};
use super::language_family;
use crate::exports::JsModule;
use crate::index::IndexedFile;
use crate::tags::Kind;

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
/// Returns the lift an entry file's own public definitions take (0 without a
/// surface): half-way between the best definition left unlifted and the least
/// lifted one, so they follow what the package imports and lead the rest.
pub(super) fn lift_public_surface(files: &[IndexedFile], base: &Base, slot_rank: &mut [f64]) -> f64 {
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
    if !surface.contains(&true) && !passes_on.contains(&true) && exported_macros.is_empty() {
        return 0.0;
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
        if crate::exports::is_declaration_file(&files[to].path) {
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
        // (An `impl Trait for ProgressBar` in the file's tests defines no `ProgressBar`.)
        if files[from].tags.defs.iter().any(|d| d.name == name && d.kind.defines_name()) {
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
    // Among them, what more files use comes first: their own rank would put what the
    // package calls internally, by long names, before what its users call (`url_for`).
    let mut users = vec![0u32; slot_rank.len()];
    for edge in &base.edges {
        users[edge.slot as usize] += 1;
    }
    for ((rank, public), users) in slot_rank.iter_mut().zip(public).zip(users) {
        if public {
            *rank += best * f64::from(1 + users);
        }
    }
    best * 1.5
}

/// Whether `path` lies in the package whose entry file is `entry` (its folder, or below).
fn within_package(entry: &str, path: &str) -> bool {
    entry
        .rsplit_once('/')
        .is_none_or(|(folder, _)| path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/')))
}

/// Whether `def`, in an entry file, is a public definition of its own: at its
/// top level, and public as its language says (a Python name without a
/// leading `_`, Rust's `pub`, what a JavaScript module exports).
pub(crate) fn is_own_public(file: &IndexedFile, def: &crate::tags::Def, module: Option<&JsModule>) -> bool {
    if def.parent.is_some() || !def.kind.defines_name() || def.name.starts_with('_') {
        return false;
    }
    match file.lang.as_str() {
        "python" => true,
        "rust" => def.is_rust_public(),
        _ => module.is_some_and(|m| crate::exports::is_declaration(def) && !m.hides(def)),
    }
}
