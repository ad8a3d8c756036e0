//! What the repository map reads from the store: the source files of the
//! last scan and the tags cache (0003_map.sql); what it writes for the
//! build: each file's outline (0012_outlines.sql); and workspaces kept in the
//! user's cache directory, for a map of a folder nobody ran `ctx init` in.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, TransactionBehavior, params};
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::{kv_get, kv_set};
use crate::workspace::Workspace;

/// A source file's outline: what the folder context files show of its code.
/// ctxkeep-map makes it (it parses and ranks); the build shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outline {
    /// Repository-relative, with `/`.
    pub path: String,
    /// blake3 of the content it was made from.
    pub hash: [u8; 32],
    /// The file's PageRank over the reference graph (all files' sum to 1),
    /// as the map stores it: to three significant digits.
    pub rank: f64,
    /// How many other files use a name it defines.
    pub referenced_by: u32,
    /// Its definitions worth showing, most important first.
    pub defs: Vec<OutlineDef>,
}

/// A definition of an outline, or a line by which the file passes on names
/// another module defines (kind `reexport`: `from .schema import Schema`,
/// `pub use self::routing::Router;`, `export { get } from './get'`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OutlineDef {
    /// `class`, `function`, `method`, `struct`, … (the map's kinds), or `reexport`.
    pub kind: String,
    /// Its name; a re-export's module (or, with none, its first name).
    pub name: String,
    /// On one line, without its body.
    pub signature: String,
    /// 1-based; 0 for a re-export.
    pub line: u32,
    /// The name of the definition it sits in (a method's class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// How many other files use its name (0 also when that cannot be told:
    /// a name many files define, a Rust item without `pub`).
    #[serde(default)]
    pub users: u32,
    /// The other constants of its family set after it, by name (arrow's
    /// `FORMAT_COOKIE`, … beside `FORMAT_ATOM`): shown with it, not each on a line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// The key of `kv` holding the digest of the outlines stored.
pub(crate) const OUTLINES_DIGEST: &str = "outlines.digest";

/// The stored outlines, by path: all, or those below the folder `below`
/// (decoding every file's costs a one-folder `ctx context` most of its time).
pub(crate) fn stored_outlines(conn: &Connection, below: Option<&str>) -> Result<HashMap<String, Outline>> {
    // `a/` ≤ a path below `a` < `a0` (`0` follows `/`).
    let range = below.map(|folder| (format!("{folder}/"), format!("{folder}0")));
    let mut stmt = conn.prepare(
        "SELECT path, hash, rank, referenced_by, defs FROM file_outlines
         WHERE ?1 IS NULL OR (path >= ?1 AND path < ?2)",
    )?;
    let mut rows =
        stmt.query(rusqlite::params![range.as_ref().map(|r| &r.0), range.as_ref().map(|r| &r.1)])?;
    let mut out = HashMap::default();
    while let Some(row) = rows.next()? {
        if let Some(outline) = outline_of_row(row)? {
            out.insert(outline.path.clone(), outline);
        }
    }
    Ok(out)
}

/// The outline a `file_outlines` row (`path, hash, rank, referenced_by,
/// defs`) holds; `None` for a row that does not decode, which is no outline:
/// the file is listed without one.
fn outline_of_row(row: &rusqlite::Row) -> Result<Option<Outline>> {
    let (path, hash): (String, Vec<u8>) = (row.get(0)?, row.get(1)?);
    let defs = row.get_ref(4)?.as_str().ok().and_then(|text| serde_json::from_str(text).ok());
    let (Ok(hash), Some(defs)) = (<[u8; 32]>::try_from(hash.as_slice()), defs) else { return Ok(None) };
    Ok(Some(Outline { path, hash, rank: row.get(2)?, referenced_by: row.get(3)?, defs }))
}

/// A text file of the repository, as the last scan saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Repository-relative, with `/`.
    pub path: String,
    /// The scan's language name (`rust`, `python`, …), if it knows one.
    pub lang: Option<String>,
    /// blake3 of the content.
    pub hash: [u8; 32],
    pub size: u64,
}

impl Workspace {
    /// The readable text files of the last scan, sorted by path: no binary,
    /// oversized or secret-looking file (those never reach any output).
    pub fn source_files(&self) -> Result<Vec<SourceFile>> {
        let conn = &self.store().conn;
        let mut stmt = conn.prepare(
            "SELECT path, lang, hash, size FROM files
             WHERE kind = 'text' AND secret IS NULL AND hash IS NOT NULL ORDER BY path",
        )?;
        let rows = stmt.query_map([], |row| {
            let hash: Vec<u8> = row.get(2)?;
            Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?, hash, row.get::<_, i64>(3)?))
        })?;
        let mut files = Vec::new();
        for row in rows {
            let (path, lang, hash, size) = row?;
            let Ok(hash) = <[u8; 32]>::try_from(hash.as_slice()) else { continue };
            files.push(SourceFile { path, lang, hash, size: size.max(0) as u64 });
        }
        Ok(files)
    }

    /// Every cached tags entry written by extractor `version`, handed to `f`
    /// as (content hash, language, bytes) straight from the row: a warm map
    /// reads megabytes of them, so they are neither copied nor kept.
    pub fn for_each_cached_tags(&self, version: u32, mut f: impl FnMut([u8; 32], &str, &[u8])) -> Result<()> {
        let conn = &self.store().conn;
        let mut stmt = conn.prepare("SELECT hash, lang, data FROM file_tags WHERE version = ?1")?;
        let mut rows = stmt.query([version])?;
        while let Some(row) = rows.next()? {
            // A row of the wrong types is no cache entry: skipped, and re-parsed.
            let (Ok(hash), Ok(lang), Ok(data)) =
                (row.get_ref(0)?.as_blob(), row.get_ref(1)?.as_str(), row.get_ref(2)?.as_blob())
            else {
                continue;
            };
            if let Ok(hash) = <[u8; 32]>::try_from(hash) {
                f(hash, lang, data);
            }
        }
        Ok(())
    }

    /// A value derived from something outside the store (the version
    /// history at one HEAD), kept under `key` so it is computed once.
    pub fn derived(&self, key: &str) -> Result<Option<String>> {
        Ok(crate::store::derived_get(&self.store().conn, key)?)
    }

    /// Keep `value` under `key` (see [`Workspace::derived`]), replacing what was there.
    pub fn save_derived(&mut self, key: &str, value: &str) -> Result<()> {
        Ok(crate::store::derived_set(&self.store_mut().conn, key, &value)?)
    }

    /// [`Workspace::derived`] for bytes (a graph, not a text): whatever a
    /// caller saved with [`Workspace::save_derived_bytes`], its own encoding,
    /// handed to `read` straight from the row (megabytes: not copied first).
    /// Like every derived value, `ctx secrets scrub` drops it.
    pub fn derived_bytes<T>(&self, key: &str, read: impl FnOnce(&[u8]) -> T) -> Result<Option<T>> {
        let mut stmt = self.store().conn.prepare_cached("SELECT value FROM derived WHERE key = ?1")?;
        let mut rows = stmt.query([key])?;
        let Some(row) = rows.next()? else { return Ok(None) };
        Ok(row.get_ref(0)?.as_blob().ok().map(read))
    }

    /// Keep `value` under `key` (see [`Workspace::derived_bytes`]), replacing what was there.
    pub fn save_derived_bytes(&mut self, key: &str, value: &[u8]) -> Result<()> {
        Ok(crate::store::derived_set(&self.store_mut().conn, key, &value)?)
    }

    /// Store freshly extracted tags, and drop entries no file's content has
    /// any more (or of another extractor version), in one transaction.
    pub fn save_tags(&mut self, version: u32, entries: &[([u8; 32], String, Vec<u8>)]) -> Result<()> {
        let tx = self.store_mut().conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO file_tags (hash, lang, version, data) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (hash, lang, data) in entries {
                insert.execute(params![&hash[..], lang, version, data])?;
            }
        }
        tx.execute(
            "DELETE FROM file_tags WHERE version != ?1
               OR hash NOT IN (SELECT hash FROM files WHERE hash IS NOT NULL)",
            [version],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Replace the stored outlines with `outlines` (every file's, of one
    /// ranking), in one transaction. Only the rows that differ are written:
    /// after an edit most files' outlines are what they were, and rewriting
    /// thousands of rows cost a build more than everything it renders.
    /// Returns whether anything was written.
    pub fn save_outlines(&mut self, outlines: &[Outline]) -> Result<bool> {
        let mut hasher = blake3::Hasher::new();
        let encoded: Vec<String> = outlines
            .iter()
            .map(|o| {
                // Plain structs of strings and numbers always encode.
                let defs = serde_json::to_string(&o.defs).unwrap_or_default();
                hasher.update(o.path.as_bytes()).update(&o.hash).update(&o.rank.to_le_bytes());
                hasher.update(&o.referenced_by.to_le_bytes()).update(defs.as_bytes()).update(b"\0");
                defs
            })
            .collect();
        let digest = hasher.finalize().to_hex().to_string();
        if kv_get(&self.store().conn, OUTLINES_DIGEST)?.as_deref() == Some(digest.as_str()) {
            return Ok(false);
        }
        let tx = self.store_mut().conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Each stored row by path, as the digest of its columns.
        let row_digest = |path: &str, hash: &[u8], rank: f64, referenced_by: u32, defs: &str| {
            let mut hasher = blake3::Hasher::new();
            hasher.update(path.as_bytes()).update(b"\0").update(hash).update(&rank.to_le_bytes());
            hasher.update(&referenced_by.to_le_bytes()).update(defs.as_bytes());
            hasher.finalize()
        };
        let mut stored: HashMap<String, blake3::Hash> = HashMap::default();
        {
            let mut stmt = tx.prepare("SELECT path, hash, rank, referenced_by, defs FROM file_outlines")?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let path: String = row.get(0)?;
                let digest = row_digest(
                    &path,
                    row.get_ref(1)?.as_blob().unwrap_or_default(),
                    row.get(2)?,
                    row.get(3)?,
                    row.get_ref(4)?.as_str().unwrap_or_default(),
                );
                stored.insert(path, digest);
            }
        }
        {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO file_outlines (path, hash, rank, referenced_by, defs)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (o, defs) in outlines.iter().zip(&encoded) {
                let same = stored.remove(&o.path)
                    == Some(row_digest(&o.path, &o.hash, o.rank, o.referenced_by, defs));
                if !same {
                    insert.execute(params![o.path, &o.hash[..], o.rank, o.referenced_by, defs])?;
                }
            }
            // What is left stored is of files that have no outline any more.
            let mut delete = tx.prepare_cached("DELETE FROM file_outlines WHERE path = ?1")?;
            for path in stored.keys() {
                delete.execute([path])?;
            }
        }
        kv_set(&tx, OUTLINES_DIGEST, &digest)?;
        tx.commit()?;
        Ok(true)
    }

    /// Store `outlines`, leaving every other file's as stored: for when no
    /// other file's can have changed (the ranking is the one they were made
    /// with). One transaction.
    pub fn update_outlines(&mut self, outlines: &[Outline]) -> Result<()> {
        let tx = self.store_mut().conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO file_outlines (path, hash, rank, referenced_by, defs)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for o in outlines {
                let defs = serde_json::to_string(&o.defs).unwrap_or_default();
                insert.execute(params![o.path, &o.hash[..], o.rank, o.referenced_by, defs])?;
            }
        }
        // The digest was of the whole set before: the next full save compares row by row.
        tx.execute("DELETE FROM kv WHERE key = ?1", [OUTLINES_DIGEST])?;
        tx.commit()?;
        Ok(())
    }

    /// The stored outline of the file at `path` (as the last map made it,
    /// perhaps of an older content: its `hash` says which), if any.
    pub fn outline(&self, path: &str) -> Result<Option<Outline>> {
        let mut stmt = self.store().conn.prepare_cached(
            "SELECT path, hash, rank, referenced_by, defs FROM file_outlines WHERE path = ?1",
        )?;
        let mut rows = stmt.query([path])?;
        match rows.next()? {
            Some(row) => outline_of_row(row),
            None => Ok(None),
        }
    }

    /// Every stored outline, sorted by path.
    pub fn outlines(&self) -> Result<Vec<Outline>> {
        let mut outlines: Vec<Outline> = stored_outlines(&self.store().conn, None)?.into_values().collect();
        outlines.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(outlines)
    }

    /// The content hash each stored outline was made from, by path.
    pub fn outline_hashes(&self) -> Result<HashMap<String, [u8; 32]>> {
        let mut stmt = self.store().conn.prepare_cached("SELECT path, hash FROM file_outlines")?;
        let rows = stmt.query_map([], |row| {
            let hash = row.get_ref(1)?.as_blob().ok().and_then(|b| <[u8; 32]>::try_from(b).ok());
            Ok((row.get::<_, String>(0)?, hash.unwrap_or_default()))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A workspace for `dir` whose database lives in `cache_root` (not in
    /// the repository), for commands that work in any folder. `dir` itself
    /// is the root; the configuration is the default.
    pub fn open_in_cache(dir: &Path, cache_root: &Path) -> Result<Workspace> {
        let root = std::fs::canonicalize(dir).map_err(|err| Error::io(dir, err))?;
        let key = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
        let state = cache_root.join("repos").join(&key[..16]);
        std::fs::create_dir_all(&state).map_err(|err| Error::io(&state, err))?;
        Workspace::open_with_store(&root, &state)
    }

    /// The workspace around `start` (see [`Workspace::discover`]) or, where
    /// there is none, one kept in the user's cache directory
    /// ([`default_cache_dir`]) with `start` as its root.
    pub fn discover_or_cache(start: &Path) -> Result<Workspace> {
        match Workspace::discover(start) {
            Err(Error::NotAWorkspace { .. }) => Workspace::open_in_cache(start, &default_cache_dir()?),
            other => other,
        }
    }
}

/// Where ctx keeps state for folders without `.ctx/`: `$CTX_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/ctx`, else `~/Library/Caches/ctx` (macOS) or `~/.cache/ctx`.
pub fn default_cache_dir() -> Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("CTX_CACHE_DIR") {
        return Ok(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(dir.join("ctx"));
    }
    let home = var("HOME").or_else(|| var("USERPROFILE")).ok_or_else(|| {
        Error::InvalidInput("no cache directory: set CTX_CACHE_DIR (or HOME) or run `ctx init`".into())
    })?;
    Ok(if cfg!(target_os = "macos") { home.join("Library/Caches/ctx") } else { home.join(".cache/ctx") })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;

    #[test]
    fn outlines_below_a_folder_are_those_of_its_files_and_no_others() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let outline = |path: &str| Outline {
            path: path.into(),
            hash: [1; 32],
            rank: 0.1,
            referenced_by: 0,
            defs: vec![],
        };
        // `a0` and `a.b` sort after `a/` and before it: neither is below `a`.
        let paths = ["a.b/x.py", "a/x.py", "a/b/y.py", "a0/z.py", "ab/w.py", "x.py"];
        ws.save_outlines(&paths.map(outline)).unwrap();
        let below = |folder| {
            let mut got: Vec<String> =
                stored_outlines(&ws.store().conn, folder).unwrap().into_keys().collect();
            got.sort();
            got
        };
        assert_eq!(below(Some("a")), ["a/b/y.py", "a/x.py"]);
        assert_eq!(below(Some("a/b")), ["a/b/y.py"]);
        assert_eq!(below(None).len(), paths.len());
        // One file's, by its path alone.
        assert_eq!(ws.outline("a/b/y.py").unwrap(), Some(outline("a/b/y.py")));
        assert_eq!(ws.outline("a/b").unwrap(), None);
    }

    #[test]
    fn saving_outlines_leaves_exactly_the_new_ones_stored() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let def = |name: &str| OutlineDef {
            kind: "function".into(),
            name: name.into(),
            signature: format!("def {name}()"),
            line: 1,
            parent: None,
            users: 2,
            also: Vec::new(),
        };
        let outline = |path: &str, rank: f64, defs: Vec<OutlineDef>| Outline {
            path: path.into(),
            hash: [7; 32],
            rank,
            referenced_by: 1,
            defs,
        };
        let first = [
            outline("kept.py", 0.5, vec![def("kept")]),
            outline("ranked.py", 0.25, vec![]),
            outline("edited.py", 0.125, vec![def("old")]),
            outline("gone.py", 0.125, vec![def("gone")]),
        ];
        assert!(ws.save_outlines(&first).unwrap());
        let second = [
            outline("kept.py", 0.5, vec![def("kept")]),
            outline("ranked.py", 0.375, vec![]),
            outline("edited.py", 0.125, vec![def("new"), def("old")]),
            outline("new.py", 0.0, vec![def("new")]),
        ];
        assert!(ws.save_outlines(&second).unwrap());
        assert!(!ws.save_outlines(&second).unwrap(), "the same outlines again write nothing");
        let stored = stored_outlines(&ws.store().conn, None).unwrap();
        let mut got: Vec<&Outline> = stored.values().collect();
        got.sort_by(|a, b| a.path.cmp(&b.path));
        let mut want: Vec<&Outline> = second.iter().collect();
        want.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(got, want);

        // Updating one leaves the others, and a full save after it still compares rows.
        let mut edited = outline("edited.py", 0.125, vec![def("newer")]);
        edited.hash = [8; 32];
        ws.update_outlines(std::slice::from_ref(&edited)).unwrap();
        let hashes = ws.outline_hashes().unwrap();
        assert_eq!((hashes.len(), hashes["edited.py"], hashes["kept.py"]), (4, [8; 32], [7; 32]));
        assert_eq!(stored_outlines(&ws.store().conn, None).unwrap()["edited.py"], edited);
        assert!(ws.save_outlines(&second).unwrap(), "the set saved before is not the one stored now");
        assert_eq!(stored_outlines(&ws.store().conn, None).unwrap()["edited.py"], second[2]);
    }
}
