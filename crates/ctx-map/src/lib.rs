//! The repository map: tree-sitter tags, a reference graph ranked with
//! personalized PageRank, and a token-budgeted map of the most important
//! definitions above a structural layer (stack, commands, key files, tree).

pub mod lang;
pub mod tags;
