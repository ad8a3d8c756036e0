//! The SQLite store: opening, connection set-up and forward-only migrations.
//!
//! One file, `.ctx/ctx.db`, in WAL mode so that many readers and one writer
//! (CLI, watcher, MCP server, Python) can work at once; writers wait on a busy
//! timeout instead of failing. Multi-row changes are transactions.
//!
//! A database that cannot be written (the file, or its folder: SQLite's WAL
//! needs a `-shm` file beside it) is opened read-only when it needs no
//! migration: reading commands work, writing ones fail with `READ_ONLY`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};

use crate::error::{Error, Result};

/// `PRAGMA application_id` of a ctx database: the bytes `ctx!`.
const APPLICATION_ID: i32 = 0x6374_7821;

/// How long a writer waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);
/// How much of the database file SQLite may map into memory (more than ctx's
/// stores hold: all of it). Address space, not memory: pages are read as touched.
const MMAP_SIZE: i64 = 1 << 30;

/// The migrations, in order; migration `i` brings the schema to version `i + 1`.
/// A shipped migration is never edited: add a new file instead.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_build.sql"),
    include_str!("../migrations/0003_map.sql"),
    include_str!("../migrations/0004_frames.sql"),
    include_str!("../migrations/0005_memory.sql"),
    include_str!("../migrations/0006_vectors.sql"),
    include_str!("../migrations/0007_records_node_partial.sql"),
    include_str!("../migrations/0008_fts_automerge.sql"),
    include_str!("../migrations/0009_knowledge.sql"),
    include_str!("../migrations/0010_transcript_cursors.sql"),
    include_str!("../migrations/0011_summary_index.sql"),
    include_str!("../migrations/0012_outlines.sql"),
    include_str!("../migrations/0013_file_terms.sql"),
    include_str!("../migrations/0014_artifacts.sql"),
    include_str!("../migrations/0015_derived.sql"),
    include_str!("../migrations/0016_term_index.sql"),
];

/// The schema version this build of ctx writes and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// An open ctx database.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Open (creating if needed) the database at `path` and bring its schema
    /// up to date. A file that is not a ctx database, is corrupt, or was
    /// written by a newer ctx is an error and is left untouched. One that
    /// cannot be written is opened read-only if it needs no migration.
    pub fn open(path: &Path) -> Result<Store> {
        if !path.exists() {
            create(path)?;
        }
        check_header(path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        match Store::connect(path, path.as_os_str(), flags).and_then(|store| store.migrate(false)) {
            Err(err) if cannot_write(&err) => Store::open_read_only(path),
            Ok(store) => {
                remove_abandoned_temps(path);
                Ok(store)
            }
            err => err,
        }
    }

    /// Open `path` read-only: as usual when SQLite can make the `-shm` file
    /// a WAL reader needs, else as an immutable file (its folder cannot be
    /// written, so nobody changes it) unless a WAL with changes is there.
    fn open_read_only(path: &Path) -> Result<Store> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let store = match Store::connect(path, path.as_os_str(), flags) {
            Err(err) if cannot_write(&err) && !has_wal_content(path) => {
                let uri = format!("file:{}?immutable=1", uri_path(path));
                Store::connect(path, uri.as_ref(), flags | OpenFlags::SQLITE_OPEN_URI)?
            }
            opened => opened?,
        };
        store.migrate(true)
    }

    /// A connection to `path` (opened by `name`: the path or a URI), set up.
    fn connect(path: &Path, name: &std::ffi::OsStr, flags: OpenFlags) -> Result<Store> {
        let conn = Connection::open_with_flags(name, flags).map_err(|e| classify(path, e))?;
        let mut store = Store { conn, path: path.to_path_buf() };
        store.configure().map_err(|e| classify(path, e))?;
        Ok(store)
    }

    /// Where the database file lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<u32> {
        Ok(self.conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    fn configure(&mut self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        // Reading the schema first makes a non-database file fail here, before
        // any pragma that would write to it.
        self.conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        // The planner would otherwise look at bound values to decide on the
        // partial indexes of `nodes` and expire a cached statement whenever
        // they change: every use prepared again (~40% of writing a work tree).
        self.conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Statement journals (an INSERT OR IGNORE that fires the FTS
        // triggers needs one per row) in memory, not in a temporary file.
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        // Reads straight from the mapped file, not a system call and a copy a
        // page: a warm map reads ~11 MB of cached tags (rust-crates, 3 ms of 110).
        self.conn.pragma_update(None, "mmap_size", MMAP_SIZE)?;
        // The lexical channel's ranking function (memory/rank.rs).
        crate::memory::rank::register(&self.conn)?;
        Ok(())
    }

    /// Bring an existing database written by an older ctx up to date
    /// (`read_only`: only check that it is).
    fn migrate(mut self, read_only: bool) -> Result<Store> {
        let path = self.path.clone();
        let (app_id, version) = self.identity().map_err(|e| classify(&path, e))?;
        self.check_identity(app_id, version)?;
        if read_only && version < SCHEMA_VERSION {
            return Err(Error::ReadOnly {
                path: Some(path),
                message: format!(
                    "schema version {version} must be upgraded to {SCHEMA_VERSION} first: run ctx once with write access"
                ),
            });
        }
        if read_only {
            return Ok(self);
        }
        self.ensure_wal().map_err(|e| classify(&path, e))?;
        if version == SCHEMA_VERSION {
            return Ok(self);
        }
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Another process may have migrated (perhaps a newer ctx) while we waited for the lock.
        let version: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(Error::NewerSchema { path, found: version, supported: SCHEMA_VERSION });
        }
        apply_migrations(&tx, version)?;
        tx.commit()?;
        Ok(self)
    }

    /// WAL is set when ctx creates a database; a file that reached us another
    /// way (an empty file, a copy made with another journal mode) gets it here.
    /// SQLite's data version: it moves when another connection commits
    /// (never for this connection's own writes).
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA data_version", [], |row| row.get(0))?)
    }

    fn ensure_wal(&self) -> rusqlite::Result<()> {
        let mode: String = self.conn.query_row("PRAGMA journal_mode", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            let _: String = self.conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        }
        Ok(())
    }

    fn identity(&self) -> rusqlite::Result<(i32, u32)> {
        let app_id = self.conn.pragma_query_value(None, "application_id", |row| row.get(0))?;
        let version = self.conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
        Ok((app_id, version))
    }

    fn check_identity(&self, app_id: i32, version: u32) -> Result<()> {
        let not_ours = || Error::NotACtxDatabase { path: self.path.clone() };
        if app_id != APPLICATION_ID && app_id != 0 {
            return Err(not_ours());
        }
        if app_id == 0 {
            // A fresh file has no tables; anything else is somebody else's database.
            let tables: i64 =
                self.conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
            if tables > 0 || version != 0 {
                return Err(not_ours());
            }
        }
        if version > SCHEMA_VERSION {
            return Err(Error::NewerSchema {
                path: self.path.clone(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(())
    }
}

/// Create a new, fully migrated database at `path` without ever exposing a
/// half-made one: build it under a temporary name, then hard-link it into
/// place, which fails if another process got there first (then theirs stands).
fn create(path: &Path) -> Result<()> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let temp = PathBuf::from(format!(
        "{}{}-{}",
        temp_prefix(path).display(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let remove_temp = || {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", temp.display()));
        }
    };
    let built = (|| -> rusqlite::Result<()> {
        let mut conn = Connection::open(&temp)?;
        // WAL is a property of the file: set once here, it holds for every later connection.
        let _: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        apply_migrations(&tx, 0)?;
        tx.commit()?;
        conn.close().map_err(|(_, err)| err)
    })();
    let placed =
        built.map_err(|err| classify(&temp, err)).and_then(|()| match std::fs::hard_link(&temp, path) {
            Ok(()) => Ok(()),
            // A file system without hard links: a rename is atomic too, but replaces
            // a database another process created meanwhile, so only when there is none.
            Err(_) if !path.exists() => std::fs::rename(&temp, path).map_err(|err| Error::io(path, err)),
            Err(err) => Err(Error::io(path, err)),
        });
    remove_temp();
    match placed {
        // Another process made the database meanwhile (and, opening it, may have
        // removed our temp as abandoned, see `remove_abandoned_temps`): theirs stands.
        Err(_) if path.exists() => Ok(()),
        placed => placed,
    }
}

/// What the temp files of [`create`] for `path` start with: `.ctx.db.new-`.
fn temp_prefix(path: &Path) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("ctx.db");
    path.with_file_name(format!(".{name}.new-"))
}

/// Remove the temp files (database, journal, WAL) of processes killed while
/// they created the database at `path`, which exists now: without this they
/// would stay forever. A creator still at work loses its temp, and accepts
/// the database it finds instead (see [`create`]). Best effort.
fn remove_abandoned_temps(path: &Path) {
    let prefix = temp_prefix(path);
    let (Some(dir), Some(prefix)) = (prefix.parent(), prefix.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(|name| name.starts_with(prefix)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Run the migrations after `version`, recording each, inside the caller's transaction.
fn apply_migrations(tx: &Connection, version: u32) -> rusqlite::Result<()> {
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as u32 + 1)?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)
}

/// How long a by-the-way write (a cache entry, the last search) waits for
/// another writer (a scan applying its changes, an ingest): a read must not
/// wait on it.
const BRIEF_BUSY_TIMEOUT: Duration = Duration::from_millis(50);

/// Run `write` waiting at most [`BRIEF_BUSY_TIMEOUT`] for the write lock.
pub(crate) fn briefly(conn: &Connection, write: impl FnOnce() -> Result<()>) -> Result<()> {
    conn.busy_timeout(BRIEF_BUSY_TIMEOUT)?;
    let written = write();
    conn.busy_timeout(BUSY_TIMEOUT)?;
    written
}

/// Read the value under `key` in the key/value table.
pub(crate) fn kv_get(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM kv WHERE key = ?1", [key], |row| row.get(0)).optional()
}

/// Write `value` under `key` in the key/value table (inside the caller's transaction).
pub(crate) fn kv_set(conn: &Connection, key: &str, value: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

/// The value derived under `key` (table `derived`), as text or bytes.
pub(crate) fn derived_get<T: rusqlite::types::FromSql>(
    conn: &Connection,
    key: &str,
) -> rusqlite::Result<Option<T>> {
    conn.query_row("SELECT value FROM derived WHERE key = ?1", [key], |row| row.get(0)).optional()
}

/// Keep `value` (text or bytes) as the one derived under `key`.
pub(crate) fn derived_set(conn: &Connection, key: &str, value: &dyn rusqlite::ToSql) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO derived (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        rusqlite::params![key, value],
    )?;
    Ok(())
}

/// A non-empty file that does not start with SQLite's magic is not ours: say so
/// before SQLite gets a chance to touch it.
fn check_header(path: &Path) -> Result<()> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(Error::io(path, err)),
    };
    let mut magic = [0u8; 16];
    let mut filled = 0;
    while filled < magic.len() {
        match file.read(&mut magic[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) => return Err(Error::io(path, err)),
        }
    }
    if filled == 0 || &magic[..filled] == b"SQLite format 3\0" {
        return Ok(());
    }
    Err(Error::NotACtxDatabase { path: path.to_path_buf() })
}

/// SQLite's errors while opening `path`: "not a database" means not ours;
/// the others as anywhere (see `From<rusqlite::Error>`), with the path.
fn classify(path: &Path, err: rusqlite::Error) -> Error {
    if err.sqlite_error_code() == Some(ErrorCode::NotADatabase) {
        return Error::NotACtxDatabase { path: path.to_path_buf() };
    }
    match Error::from(err) {
        Error::CorruptDatabase { message, .. } => Error::CorruptDatabase { path: Some(path.into()), message },
        Error::ReadOnly { message, .. } => Error::ReadOnly { path: Some(path.into()), message },
        other => other,
    }
}

/// An error that opening read-only could avoid: the file or its folder cannot be written.
fn cannot_write(err: &Error) -> bool {
    match err {
        Error::ReadOnly { .. } => true,
        Error::Database(err) => err.sqlite_error_code() == Some(ErrorCode::CannotOpen),
        _ => false,
    }
}

/// Whether `path` has a write-ahead log with changes not yet in the file.
fn has_wal_content(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).is_ok_and(|meta| meta.len() > 0)
}

/// `path` for an SQLite URI: bytes other than letters, digits and `/._-~` percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for &byte in path.as_os_str().as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"/._-~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        drop(store);
        let store = Store::open(&path).unwrap();
        let mode: String = store.conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
        let fk: bool = store.conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0)).unwrap();
        assert!(fk);
    }

    #[test]
    fn lookups_by_bound_values_still_use_the_partial_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("ctx.db")).unwrap();
        let plan = |sql: &str| -> String {
            let mut stmt = store.conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let rows =
                stmt.query_map([rusqlite::types::Value::Integer(7)], |row| row.get::<_, String>(3)).unwrap();
            rows.map(|r| r.unwrap()).collect::<Vec<_>>().join("; ")
        };
        for (sql, index) in [
            ("SELECT id FROM nodes WHERE seq = ?1 AND kind = 'frame'", "nodes_frame_seq"),
            ("SELECT id FROM nodes WHERE kind = 'folder' AND path = ?1", "nodes_folder_path"),
            ("SELECT uid FROM records WHERE node_id = ?1 AND type = 'decision'", "records_node"),
        ] {
            let plan = plan(sql);
            assert!(plan.contains(index), "{sql}: {plan}");
        }
    }

    #[test]
    fn text_file_is_not_a_database_and_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        std::fs::write(&path, "hello, I am a text file\n").unwrap();
        let err = Store::open(&path).unwrap_err();
        assert_eq!(err.code(), "NOT_A_CTX_DATABASE", "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello, I am a text file\n");
    }

    #[test]
    fn foreign_sqlite_database_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        Connection::open(&path).unwrap().execute_batch("CREATE TABLE t (x)").unwrap();
        let err = Store::open(&path).unwrap_err();
        assert_eq!(err.code(), "NOT_A_CTX_DATABASE", "{err}");
    }

    #[test]
    fn newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        drop(Store::open(&path).unwrap());
        Connection::open(&path).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        let err = Store::open(&path).unwrap_err();
        assert_eq!(err.code(), "NEWER_SCHEMA", "{err}");
        assert!(err.to_string().contains("upgrade ctx"));
    }

    #[test]
    fn the_temp_files_of_a_killed_creation_are_removed_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        let left =
            ["", "-journal", "-wal"].map(|suffix| dir.path().join(format!(".ctx.db.new-4242-0{suffix}")));
        for file in &left {
            std::fs::write(file, "half made").unwrap();
        }
        drop(Store::open(&path).unwrap());
        assert!(left.iter().all(|file| !file.exists()));
        std::fs::write(&left[0], "half made").unwrap();
        drop(Store::open(&path).unwrap());
        assert!(!left[0].exists(), "also when the database was there");
    }

    #[test]
    fn an_empty_file_becomes_a_wal_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        std::fs::write(&path, "").unwrap();
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let mode: String = store.conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn garbage_after_a_valid_header_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ctx.db");
        let mut bytes = b"SQLite format 3\0".to_vec();
        bytes.extend(std::iter::repeat_n(0xA5u8, 8192));
        std::fs::write(&path, &bytes).unwrap();
        let err = Store::open(&path).unwrap_err();
        assert!(matches!(err.code(), "NOT_A_CTX_DATABASE" | "CORRUPT_DATABASE"), "{err}");
    }
}
