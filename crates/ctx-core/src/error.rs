//! The one error type of ctxkeep-core.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong in ctxkeep-core.
///
/// Messages are short, lower-case and have no trailing period, so front-ends
/// can print them as they are. [`Error::code`] gives a stable identifier for
/// programs (JSON output, Python exception fields).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not a ctx workspace (no .ctx/ in {} or any parent); run `ctx init`", start.display())]
    NotAWorkspace { start: PathBuf },

    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },

    #[error("{}: not a ctx database", path.display())]
    NotACtxDatabase { path: PathBuf },

    /// SQLite found the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB), when
    /// opening it (`path` known) or later.
    #[error("{}database is corrupt ({message})", at(path))]
    CorruptDatabase { path: Option<PathBuf>, message: String },

    /// A change to a database that cannot be written (its file or folder
    /// is read-only): reading still works.
    #[error("{}database is read-only: this needs write access to it and its folder ({message})", at(path))]
    ReadOnly { path: Option<PathBuf>, message: String },

    #[error(
        "{}: written by a newer ctx (schema version {found}, this ctx knows up to {supported}); upgrade ctx",
        path.display()
    )]
    NewerSchema { path: PathBuf, found: u32, supported: u32 },

    #[error("database error: {0}")]
    Database(rusqlite::Error),

    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },

    #[error("{input}: outside the workspace root {}", root.display())]
    OutsideRoot { input: String, root: PathBuf },

    #[error("{path}: unknown folder (not in the last scan; run `ctx scan`?)")]
    UnknownFolder { path: String },

    #[error("{0}")]
    InvalidInput(String),

    #[error("{0}")]
    Watch(String),

    #[error("{0}")]
    Budget(String),

    #[error("{id}: unknown frame (see `ctx frame tree`)")]
    UnknownFrame { id: String },

    #[error("{id}: unknown record")]
    UnknownRecord { id: String },

    #[error("no current frame: push one with `ctx frame push GOAL` or start a task, or name a frame")]
    NoCurrentFrame,

    #[error("{0}")]
    FrameState(String),

    #[error("{0}")]
    ContextTooLarge(String),

    #[error("{0}")]
    Embedder(String),

    /// A knowledge file (`.ctx/knowledge/`) that cannot be read: conflict
    /// markers, malformed front matter, a value that is not allowed.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Knowledge { path: PathBuf, line: Option<usize>, message: String },

    /// Markers of ctx's section that cannot be read as one section, per file
    /// (nothing was written).
    #[error("{}", broken_sections(files))]
    ManagedSectionBroken { files: Vec<(String, Vec<crate::agents::Problem>)> },

    /// A section written by a newer ctx (nothing was written).
    #[error(
        "{path}: line {line}: its ctx section is v{found}, written by a newer ctx (this one writes v{supported}); upgrade ctx"
    )]
    NewerSection { path: String, line: usize, found: u32, supported: u32 },

    /// An agent harness's config file (`ctx install`) that cannot be read
    /// as what it should be (nothing was written).
    #[error("{}: {message}; nothing was written", path.display())]
    HarnessConfig { path: PathBuf, message: String },

    /// An artifact command or operation that cannot be done, in the ACK
    /// seed's shape (`error`, `message`, `suggestions`, `action`, `candidates`).
    #[error("{0}")]
    Artifact(Box<crate::artifact::ArtifactError>),

    #[error("template {template}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    Template { template: String, line: Option<usize>, message: String },
}

impl Error {
    /// A stable, upper-snake-case identifier of the kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::NotAWorkspace { .. } => "NOT_A_WORKSPACE",
            Error::Io { .. } => "IO_ERROR",
            Error::NotACtxDatabase { .. } => "NOT_A_CTX_DATABASE",
            Error::CorruptDatabase { .. } => "CORRUPT_DATABASE",
            Error::ReadOnly { .. } => "READ_ONLY",
            Error::NewerSchema { .. } => "NEWER_SCHEMA",
            Error::Database(_) => "DATABASE_ERROR",
            Error::Embedder(_) => "EMBEDDER_ERROR",
            Error::Config { .. } => "CONFIG_ERROR",
            Error::OutsideRoot { .. } => "OUTSIDE_ROOT",
            Error::UnknownFolder { .. } => "UNKNOWN_FOLDER",
            Error::InvalidInput(_) => "INVALID_INPUT",
            Error::Template { .. } => "TEMPLATE_ERROR",
            Error::Knowledge { .. } => "INVALID_KNOWLEDGE_FILE",
            Error::Watch(_) => "WATCH_ERROR",
            Error::Budget(_) => "INVALID_BUDGET",
            Error::UnknownFrame { .. } => "UNKNOWN_FRAME",
            Error::NoCurrentFrame => "NO_CURRENT_FRAME",
            Error::UnknownRecord { .. } => "UNKNOWN_RECORD",
            Error::FrameState(_) => "INVALID_FRAME_STATE",
            Error::ContextTooLarge(_) => "CONTEXT_TOO_LARGE",
            Error::ManagedSectionBroken { .. } => "MANAGED_SECTION_BROKEN",
            Error::NewerSection { .. } => "NEWER_MANAGED_SECTION",
            Error::HarnessConfig { .. } => "INVALID_HARNESS_CONFIG",
            Error::Artifact(err) => err.error.as_str(),
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }
}

/// The one place SQLite's errors become ours: damage and read-only files
/// have their own codes wherever they are met.
impl From<rusqlite::Error> for Error {
    fn from(err: rusqlite::Error) -> Error {
        // SQLite's message alone (rusqlite's text repeats it, with the number).
        let message = || match &err {
            rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
            other => other.to_string(),
        };
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
                Error::CorruptDatabase { path: None, message: message() }
            }
            Some(rusqlite::ErrorCode::ReadOnly) => Error::ReadOnly { path: None, message: message() },
            _ => Error::Database(err),
        }
    }
}

/// `AGENTS.md: line 3: ...; CLAUDE.md: lines 2, 3: ...`, and what to do.
fn broken_sections(files: &[(String, Vec<crate::agents::Problem>)]) -> String {
    let mut parts = Vec::new();
    for (file, problems) in files {
        for problem in problems {
            parts.push(format!("{file}: {problem}"));
        }
    }
    format!(
        "{}; nothing was written (`ctx update --repair` removes the markers and writes one section, see docs/agents.md)",
        parts.join("; ")
    )
}

/// `path: ` when there is a path, for messages that may have one.
fn at(path: &Option<PathBuf>) -> String {
    path.as_ref().map(|path| format!("{}: ", path.display())).unwrap_or_default()
}

impl From<crate::artifact::ArtifactError> for Error {
    fn from(err: crate::artifact::ArtifactError) -> Error {
        Error::Artifact(Box::new(err))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
