//! How much a user's numbers and input may ask for. A number that sizes
//! memory (rows to rank, candidates to rescore) is checked against its
//! limit before anything is allocated from it, here in the library, so every
//! front-end gets the same errors. The limits are documented in
//! docs/records.md.

use crate::error::{Error, Result};

/// The most rows a search (`-k`) or a ranking (`ctx rank -k`) returns.
pub const MAX_K: usize = 1000;

/// The most records a timeline shows on each side of its anchor.
pub const MAX_TIMELINE_SIDE: usize = 1000;

/// The most distinct terms a search query keeps (the first ones; the rest
/// are dropped and `retrieval.terms_dropped` counts them).
pub const MAX_QUERY_TERMS: usize = 64;

/// The longest line `ingest` reads, in bytes: a longer one is reported as
/// malformed and skipped without being held in memory.
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// How many bytes of lines over [`MAX_LINE_BYTES`] one ingest skips before
/// it stops with an error (an input that never ends a line never ends).
pub const MAX_SKIPPED_BYTES: u64 = 256 << 20;

/// `value`, a count that must be at least 1 and at most `max`; `name` is
/// the option it came from (`-k`, `--tokens`), as errors say it.
pub fn count(name: &str, value: usize, max: usize) -> Result<usize> {
    if value == 0 {
        return Err(Error::InvalidInput(format!("{name} must be at least 1")));
    }
    at_most(name, value, max)
}

/// `value`, which may be 0 but not above `max`.
pub fn at_most(name: &str, value: usize, max: usize) -> Result<usize> {
    if value > max {
        return Err(Error::InvalidInput(format!("{name} must be at most {max} (it is {value})")));
    }
    Ok(value)
}

/// `value`, which must be at least 1 (a budget, a threshold).
pub fn positive(name: &str, value: usize) -> Result<usize> {
    count(name, value, usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_checked_against_zero_and_their_limit() {
        assert_eq!(count("-k", 1000, MAX_K).unwrap(), 1000);
        assert_eq!(count("-k", 0, MAX_K).unwrap_err().to_string(), "-k must be at least 1");
        let err = count("-k", usize::MAX, MAX_K).unwrap_err();
        assert_eq!(err.code(), "INVALID_INPUT");
        assert!(err.to_string().starts_with("-k must be at most 1000"), "{err}");
        assert_eq!(at_most("--before", 0, MAX_TIMELINE_SIDE).unwrap(), 0);
        assert!(positive("--tokens", 0).is_err());
        assert_eq!(positive("--tokens", usize::MAX).unwrap(), usize::MAX);
    }
}
