//! ctxkeep-map's errors.

/// What can go wrong building a map.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Core(#[from] ctxkeep_core::Error),
    /// A grammar or a tags query failed to load (a bug in this build of ctx).
    #[error("tags: {0}")]
    Tags(String),
    #[error("{0}")]
    InvalidInput(String),
    /// `ctx eval` was pointed at a folder outside any git repository.
    #[error("{}: not in a git repository (ctx eval reads the git history)", .path.display())]
    NotGit { path: std::path::PathBuf },
    /// `ctx eval` found a repository without a commit.
    #[error("{}: the repository has no commits yet", .path.display())]
    NoCommits { path: std::path::PathBuf },
    /// `ctx eval` found a shallow clone: the history it would read is cut.
    #[error("{}: a shallow clone, its history is cut (run `git fetch --unshallow`)", .path.display())]
    Shallow { path: std::path::PathBuf },
    /// A git command failed (or git could not be run).
    #[error("git {command}: {message}")]
    Git { command: String, message: String },
}

impl Error {
    /// A stable code for programs (JSON errors), as ctxkeep-core's.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Core(err) => err.code(),
            Error::Tags(_) => "TAGS_ERROR",
            Error::InvalidInput(_) => "INVALID_INPUT",
            Error::NotGit { .. } => "NOT_A_GIT_REPOSITORY",
            Error::NoCommits { .. } => "NO_COMMITS",
            Error::Shallow { .. } => "SHALLOW_REPOSITORY",
            Error::Git { .. } => "GIT_ERROR",
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
