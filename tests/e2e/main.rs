//! End-to-end tests: the `ctx` binary run on fixture trees built in temp dirs.
//! One test binary (see ripgrep's tests/tests.rs); `util` gives each test a
//! fresh repository and a way to run `ctx` in it.

mod util;

mod agents;
mod artifacts;
mod build;

mod cli;
mod crate_readme;
mod eval;
mod faults;
mod folder_context;
mod frames;
mod hooks;
mod hostile;
mod install;
mod knowledge;
mod limits;
mod map;
mod mcp;
mod memory;
mod rough_edges;
mod scan;
mod secrets;
mod store;
mod transcripts;
mod tried;
