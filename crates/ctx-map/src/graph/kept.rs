//! The ranking with no focus, kept in the store under the graph's digest:
//! a build after an edit that leaves the graph as it was (inside a body, a
//! comment) reads it back instead of reading the graph's base and running
//! PageRank again.

use ctxkeep_core::Workspace;

use super::Ranking;
use crate::index::IndexedFile;

/// Where it is kept ([`Workspace::derived_bytes`]).
const KEY: &str = "overview-ranking";
/// The encoding's version; a change of how the overview is ranked must change it.
const VERSION: u32 = 11;
const MAGIC: &[u8; 4] = b"CTXR";

impl Ranking {
    /// The ranking with no focus of `files`, whose graph's digest is
    /// `digest`, if the store keeps it.
    pub fn kept(ws: &Workspace, digest: &[u8; 32], files: &[IndexedFile]) -> Option<Ranking> {
        ws.derived_bytes(KEY, |bytes| decode(bytes, digest, files)).ok().flatten().flatten()
    }

    /// Keep this ranking, the one with no focus of the graph whose digest is
    /// `digest`. It only saves the next run some work: a store that cannot
    /// be written costs nothing.
    pub fn keep(&self, ws: &mut Workspace, digest: &[u8; 32]) {
        let _ = ws.save_derived_bytes(KEY, &encode(self, digest));
    }
}

/// Magic, version, digest, the number of files, each file's rank, then
/// each file's number of definitions, their scores, and a byte each (1: of the
/// public surface); little-endian.
fn encode(ranking: &Ranking, digest: &[u8; 32]) -> Vec<u8> {
    let defs: usize = ranking.def_rank.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(44 + ranking.file_rank.len() * 12 + defs * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(digest);
    out.extend_from_slice(&(ranking.file_rank.len() as u32).to_le_bytes());
    for rank in &ranking.file_rank {
        out.extend_from_slice(&rank.to_le_bytes());
    }
    for (f, scores) in ranking.def_rank.iter().enumerate() {
        out.extend_from_slice(&(scores.len() as u32).to_le_bytes());
        for score in scores {
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.extend((0..scores.len()).map(|d| u8::from(ranking.is_surface(f, d))));
    }
    out
}

/// The ranking in `bytes` if it is of these files' graph (`digest`) and
/// whole; anything else reads as not kept.
fn decode(bytes: &[u8], digest: &[u8; 32], files: &[IndexedFile]) -> Option<Ranking> {
    let mut rest = bytes.strip_prefix(MAGIC)?.strip_prefix(&VERSION.to_le_bytes())?.strip_prefix(digest)?;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, tail) = rest.split_at_checked(n)?;
        rest = tail;
        Some(head)
    };
    let u32_at = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let f64s = |b: &[u8]| -> Vec<f64> {
        b.chunks_exact(8)
            .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect()
    };
    if u32_at(take(4)?) != files.len() {
        return None;
    }
    let file_rank = f64s(take(files.len().checked_mul(8)?)?);
    let (mut def_rank, mut surface) = (Vec::with_capacity(files.len()), Vec::with_capacity(files.len()));
    for file in files {
        let defs = file.tags.defs.len();
        if u32_at(take(4)?) != defs {
            return None;
        }
        def_rank.push(f64s(take(defs.checked_mul(8)?)?));
        surface.push(take(defs)?.iter().map(|&b| b == 1).collect());
    }
    rest.is_empty().then_some(Ranking { file_rank, def_rank, surface })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Focus, rank};
    use crate::index::python_file as indexed;

    #[test]
    fn round_trips_and_rejects_other_graphs_and_damage() {
        let files = vec![
            indexed(
                "pkg/app.py",
                "from pkg.util import helper\nclass App:\n    def run(self):\n        helper()\n",
            ),
            indexed("pkg/util.py", "def helper():\n    return App()\n"),
            indexed("pkg/__init__.py", "from pkg.util import helper\n"),
        ];
        let ranking = rank(&files, &Focus::default());
        assert!(ranking.is_surface(1, 0), "what `__init__.py` imports is the surface");
        let digest = [7; 32];
        let bytes = encode(&ranking, &digest);
        let back = decode(&bytes, &digest, &files).unwrap();
        assert_eq!(
            (back.file_rank, back.def_rank, back.surface),
            (ranking.file_rank.clone(), ranking.def_rank.clone(), ranking.surface.clone())
        );
        assert!(decode(&bytes, &[8; 32], &files).is_none(), "another graph's");
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], &digest, &files).is_none(), "a cut at {cut} decodes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, &digest, &files).is_none());
        // A file with another number of definitions: not its ranking.
        let other = vec![
            files[0].clone(),
            indexed("pkg/util.py", "def helper():\n    pass\ndef more():\n    pass\n"),
            files[2].clone(),
        ];
        assert!(decode(&bytes, &digest, &other).is_none());
    }
}
