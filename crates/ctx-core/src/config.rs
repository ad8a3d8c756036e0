//! `.ctx/config.toml`: the workspace's settings.
//!
//! Precedence, highest first:
//! 1. `.ctx/config.toml` in the workspace;
//! 2. the built-in defaults, which are the file [`DEFAULT_CONFIG_TOML`] that
//!    `ctx init` writes (every key commented with its default).

use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::tokens::TokenizerKind;

/// The commented default configuration that `ctx init` writes.
pub const DEFAULT_CONFIG_TOML: &str = include_str!("../defaults/config.toml");

/// The workspace configuration. Unknown keys are an error, so a typo never
/// silently falls back to a default.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub scan: ScanConfig,
    pub build: BuildConfig,
}

/// `[build]`: how context files are made.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct BuildConfig {
    /// What tier caps are counted in: `o200k` (exact, default) or `estimate`
    /// (four characters a token).
    pub tokenizer: TokenizerKind,
}

/// `[scan]`: what the scanner walks and reads.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ScanConfig {
    /// gitignore-style globs, relative to the root, of paths to leave out. Default: none.
    pub exclude: Vec<String>,
    /// Files larger than this are recorded but not read. Default: 1 MiB.
    pub max_file_bytes: u64,
    /// Scan hidden files and folders. Default: true.
    pub hidden: bool,
    /// Follow symbolic links. Default: false.
    pub follow_symlinks: bool,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig { exclude: Vec::new(), max_file_bytes: 1024 * 1024, hidden: true, follow_symlinks: false }
    }
}

impl Config {
    /// Parse a configuration file's text; `path` only names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        toml::from_str(text).map_err(|err| Error::Config {
            path: path.to_path_buf(),
            message: err.to_string().trim_end().replace('\n', " "),
        })
    }

    /// Read `path`, or the defaults when it does not exist.
    pub fn load(path: &Path) -> Result<Config> {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&text, path),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(err) => Err(Error::io(path, err)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_is_the_defaults() {
        let parsed = Config::parse(DEFAULT_CONFIG_TOML, Path::new("config.toml")).unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn values_override_defaults() {
        let text = "[scan]\nexclude = [\"vendor/**\"]\nmax_file_bytes = 10\n";
        let config = Config::parse(text, Path::new("c.toml")).unwrap();
        assert_eq!(config.scan.exclude, ["vendor/**"]);
        assert_eq!(config.scan.max_file_bytes, 10);
        assert!(config.scan.hidden);
        let config = Config::parse("[build]\ntokenizer = \"estimate\"\n", Path::new("c.toml")).unwrap();
        assert_eq!(config.build.tokenizer, TokenizerKind::Estimate);
        assert!(Config::parse("[build]\ntokenizer = \"gpt2\"\n", Path::new("c.toml")).is_err());
    }

    #[test]
    fn unknown_keys_and_bad_types_are_errors() {
        let err = Config::parse("[scan]\nexclud = []\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("exclud"), "{err}");
        let err = Config::parse("[scan]\nmax_file_bytes = \"big\"\n", Path::new("c.toml")).unwrap_err();
        assert_eq!(err.code(), "CONFIG_ERROR");
        assert!(err.to_string().starts_with("c.toml: "), "{err}");
    }
}
