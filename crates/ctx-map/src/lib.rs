//! ctxkeep-map: the repository map of ctx — tree-sitter tags, a reference
//! graph ranked with personalized PageRank, and a token-budgeted map of the
//! most important definitions above a structural layer (stack, commands, key
//! files, tree).
//!
//! It works on a [`ctxkeep_core::Workspace`]: indexing scans the repository
//! through it and caches every file's tags in the workspace's store, so a
//! second map of an unchanged tree parses nothing.
//!
//! Main entry points:
//! - [`map::map`] with [`map::MapOptions`]: the map of a repository, or of
//!   one task (focus files, a query), as text and as a [`map::RepoMap`]
//!   (its files, definitions and structure); [`map::write_map`] keeps it in
//!   `.ctx/map.md`.
//! - [`rank::rank_workspace`] with [`rank::RankOptions`]: the repository's
//!   files, most relevant to a task first ([`rank::RankedFile`]), from their
//!   words, the reference graph and the version history.
//! - [`tags::extract`]: the definitions and references of one source text
//!   ([`lang::Lang`]: Rust, Python, JavaScript, TypeScript, TSX).
//! - [`hook`]: what Claude Code's hooks inject; [`eval`]: how well ranking
//!   finds the files past commits changed; [`update`]: `ctx update`.
//! - [`Error`]: this crate's errors, with [`ctxkeep_core::Error`] inside and
//!   the same stable [`Error::code`]s.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! use ctxkeep_core::Workspace;
//! use ctxkeep_map::map::{MapOptions, map};
//! use ctxkeep_map::rank::{RankOptions, rank_workspace};
//!
//! // A small repository: a config parser, and the server and CLI that use it.
//! let root = dir.path();
//! std::fs::create_dir(root.join("src"))?;
//! std::fs::write(root.join("src/lib.rs"), "pub mod cli;\npub mod config;\npub mod server;\n")?;
//! std::fs::write(
//!     root.join("src/config.rs"),
//!     "pub struct Config {\n    pub port: u16,\n}\n\n\
//!      pub fn parse_config(text: &str) -> Config {\n    Config { port: text.trim().parse().unwrap_or(8080) }\n}\n",
//! )?;
//! std::fs::write(
//!     root.join("src/server.rs"),
//!     "use crate::config::{parse_config, Config};\n\n\
//!      pub fn serve(text: &str) -> u16 {\n    let config: Config = parse_config(text);\n    config.port\n}\n",
//! )?;
//! std::fs::write(
//!     root.join("src/cli.rs"),
//!     "use crate::config::parse_config;\n\npub fn run(args: &str) -> u16 {\n    parse_config(args).port\n}\n",
//! )?;
//! let (mut ws, _) = Workspace::init(root)?;
//!
//! // The map: the definitions the rest of the code uses most, with their
//! // signatures, within the token budget.
//! let repo_map = map(&mut ws, &MapOptions { tokens: 500, ..Default::default() }, None)?;
//! assert!(repo_map.tokens <= 500);
//! assert_eq!(repo_map.files[0].path, "src/config.rs");
//! assert!(repo_map.text.contains("pub fn parse_config(text: &str) -> Config"));
//!
//! // The files to read first for a task.
//! let task = "the server should listen on port 80 by default";
//! let (ranked, _) = rank_workspace(&mut ws, task, RankOptions { top: Some(2), ..Default::default() }, None)?;
//! assert_eq!(ranked.len(), 2);
//! assert_eq!(ranked[0].path, "src/server.rs");
//! # Ok(()) }
//! ```
//!
//! Tags need no workspace:
//!
//! ```
//! use ctxkeep_map::lang::Lang;
//! use ctxkeep_map::tags::{Kind, extract};
//!
//! let tags = extract(Lang::Python, "class Pool:\n    def acquire(self, timeout):\n        return wait(timeout)\n")?;
//! let names: Vec<_> = tags.defs.iter().map(|d| (d.name.as_str(), d.kind)).collect();
//! assert_eq!(names, [("Pool", Kind::Class), ("acquire", Kind::Method)]);
//! assert!(tags.refs.iter().any(|r| r.name == "wait"));
//! # Ok::<(), String>(())
//! ```
//!
//! Like ctxkeep-core, this crate never prints, exits or panics on bad input:
//! a file that does not parse still yields what parsed, and every failure
//! is an [`Error`].

mod attributes;
mod codec;
mod deprecated;
mod error;
pub mod eval;
mod exports;
pub mod fallback;
pub mod graph;
pub mod history;
pub mod hook;
pub mod index;
mod inverted;
mod item_macros;
pub mod lang;
pub mod map;
pub mod outline;
pub mod rank;
mod said;
mod signature;
pub mod tags;
pub mod terms;

pub use ctxkeep_core::structure;
pub use error::{Error, Result};
pub use map::update;

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
