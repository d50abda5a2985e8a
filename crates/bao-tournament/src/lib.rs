//! Tournaments of Bao (see the modules); pure functions of plain data, no I/O.

pub mod matching;
