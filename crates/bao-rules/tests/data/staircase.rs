//! The kimasai staircase cycle (BRD-7.5; docs/spec-notes.md, "Threefold repetition"), kept
//! once in kimasai-staircase.txt and read by the repetition tests of every crate through
//! `#[path = ".../bao-rules/tests/data/staircase.rs"] mod staircase;`.

const DATA: &str = include_str!("kimasai-staircase.txt");

fn lines() -> impl Iterator<Item = &'static str> {
    DATA.lines().filter(|l| !l.starts_with('#'))
}

/// The cycle's first position (NOT-3 text): kimasai, both reserves empty, South to move.
pub fn start() -> &'static str {
    lines().next().expect("kimasai-staircase.txt: no position")
}

/// One round of the cycle: 64 plies, South first, after which `start()` recurs.
pub fn round() -> Vec<String> {
    lines()
        .skip(1)
        .flat_map(str::split_whitespace)
        .map(String::from)
        .collect()
}
