//! Research programs for the Bao games, kept apart from the product: the repetition searches
//! behind docs/spec-notes.md ("Threefold repetition", BRD-7.5) and the engine measurements
//! behind docs/levels.md (time to depth, two threads against one). See README.md.
//!
//! The library holds only what several of the programs (src/bin/) share.

pub mod line;
pub mod scc;
