//! Helpers shared by the tests and the coverage example.

pub mod spec;
