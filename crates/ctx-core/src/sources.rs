//! What the repository map reads from the store: the source files of the
//! last scan and the tags cache (0003_map.sql); and workspaces kept in the
//! user's cache directory, for a map of a folder nobody ran `ctx init` in.

use std::path::{Path, PathBuf};

use rusqlite::{TransactionBehavior, params};

use crate::error::{Error, Result};
use crate::workspace::Workspace;

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
        Ok(crate::store::kv_get(&self.store().conn, &format!("derived.{key}"))?)
    }

    /// Keep `value` under `key` (see [`Workspace::derived`]), replacing what was there.
    pub fn save_derived(&mut self, key: &str, value: &str) -> Result<()> {
        Ok(crate::store::kv_set(&self.store_mut().conn, &format!("derived.{key}"), value)?)
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
