//! Planning artifacts (ACK): Markdown documents made of sections.
pub mod target;
