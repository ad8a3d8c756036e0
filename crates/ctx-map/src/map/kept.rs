//! The map with no task, kept in the store under everything it is made
//! from: a warm `ctx map` (the SessionStart hook's, `ctx update`'s) on a
//! tree that has not changed reads it back instead of decoding every file's
//! tags, ranking and fitting them again.

use ctxkeep_core::{SourceFile, Workspace};
use serde::{Deserialize, Serialize};

use super::RepoMap;
use crate::index::IndexStats;
use crate::structure::Structure;

/// Where it is kept ([`Workspace::derived`]).
const KEY: &str = "overview-map";
/// The fingerprint of the code that makes maps (build.rs): a map made by
/// another build of ctx is never read back, whatever changed in it.
const BUILD: &str = env!("CTX_MAP_SOURCE_HASH");

/// The digest of what the map with no task follows from: every source's
/// path, language and content, the project's structure and declared
/// entry points, the budget and the tokenizer, and the code of this build.
pub(super) struct Inputs(String);

impl Inputs {
    pub(super) fn of(
        sources: &[SourceFile],
        structure: &Structure,
        entries: &[String],
        tokens: usize,
        tokenizer: &str,
    ) -> Inputs {
        let mut hasher = blake3::Hasher::new();
        hasher.update(BUILD.as_bytes()).update(b"\0").update(tokenizer.as_bytes()).update(b"\0");
        hasher.update(&(tokens as u64).to_le_bytes());
        for source in sources {
            hasher.update(source.path.as_bytes()).update(b"\0");
            hasher.update(source.lang.as_deref().unwrap_or_default().as_bytes()).update(b"\0");
            hasher.update(&source.hash);
        }
        hasher.update(&serde_json::to_vec(structure).unwrap_or_default());
        for entry in entries {
            hasher.update(entry.as_bytes()).update(b"\0");
        }
        Inputs(hasher.finalize().to_hex().to_string())
    }
}

#[derive(Serialize, Deserialize)]
struct Kept {
    inputs: String,
    map: RepoMap,
}

/// The map kept for `inputs`, if the store has it, with this run's index
/// figures: every file's tags counted as cached, none parsed.
pub(super) fn map(ws: &Workspace, inputs: &Inputs, scan_ms: u64) -> Option<RepoMap> {
    let kept: Kept = serde_json::from_str(&ws.derived(KEY).ok()??).ok()?;
    if kept.inputs != inputs.0 {
        return None;
    }
    let stats = kept.map.index;
    let index = IndexStats { parsed: 0, cached: stats.files, unreadable: 0, scan_ms, parse_ms: 0, ..stats };
    Some(RepoMap { index, ..kept.map })
}

/// Keep `map`, made from `inputs` (unless a file could not be read). It only saves the next run some work: a
/// store that cannot be written costs nothing.
pub(super) fn keep(ws: &mut Workspace, inputs: &Inputs, map: &RepoMap) {
    // A file gone between the scan and its reading is not in the map, but in `inputs`.
    if map.index.unreadable > 0 {
        return;
    }
    let kept = serde_json::to_string(&Kept { inputs: inputs.0.clone(), map: map.clone() });
    if let Ok(kept) = kept {
        let _ = ws.save_derived(KEY, &kept);
    }
}
