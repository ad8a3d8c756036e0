//! ctx-map's errors.

/// What can go wrong building a map.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Core(#[from] ctx_core::Error),
    /// A grammar or a tags query failed to load (a bug in this build of ctx).
    #[error("tags: {0}")]
    Tags(String),
    #[error("{0}")]
    InvalidInput(String),
}

impl Error {
    /// A stable code for programs (JSON errors), as ctx-core's.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Core(err) => err.code(),
            Error::Tags(_) => "TAGS_ERROR",
            Error::InvalidInput(_) => "INVALID_INPUT",
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
