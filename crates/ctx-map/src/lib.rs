//! The repository map: tree-sitter tags, a reference graph ranked with
//! personalized PageRank, and a token-budgeted map of the most important
//! definitions above a structural layer (stack, commands, key files, tree).

mod codec;
mod error;
pub mod eval;
pub mod fallback;
pub mod graph;
pub mod history;
pub mod hook;
pub mod index;
pub mod lang;
pub mod map;
pub mod outline;
pub mod rank;
pub mod tags;
pub mod terms;

pub use ctxkeep_core::structure;
pub use error::{Error, Result};
pub use map::update;
