//! What a newcomer meets first on the command line: a variant name that is not one,
//! a missing argument, a pipe closed by its reader, and the grouped `bao --help`.

mod common;
use common::{bao, spawn_bao};
use std::io::{BufRead, BufReader, Write};

#[test]
fn an_unknown_variant_name_is_named() {
    let (code, out, err) = bao(&["moves", "chess"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    // The category stays that of a malformed position (NOT-5); the detail names the word.
    assert!(err.starts_with("error: bad_position: syntax: "), "{err}");
    assert!(err.contains("unknown variant 'chess'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_missing_argument_is_named() {
    let (code, out, err) = bao(&["moves"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with("error: usage: "), "{err}");
    assert!(err.contains("POSITION"), "{err}");
    assert!(err.contains("(see bao moves --help)"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = bao(&["perft", "kiswahili"]);
    assert_eq!(code, 2);
    assert!(err.contains("DEPTH"), "{err}");
}

/// `yes kiswahili | bao moves - | head -1`: the reader closes the pipe after one line. bao
/// stops quietly with success; it does not report an I/O error.
#[test]
fn a_closed_pipe_is_quiet() {
    let mut child = spawn_bao(&["moves", "-"]);
    let mut input = child.stdin.take().unwrap();
    // Far more output than a pipe buffer holds, so bao is still writing when the pipe closes.
    let writer = std::thread::spawn(move || {
        for _ in 0..3000 {
            if input.write_all(b"kiswahili\n").is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("A"), "{first:?}"); // the reader drops its end here
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn help_groups_the_commands_and_ends_with_a_newline() {
    let (code, out, _) = bao(&["--help"]);
    assert_eq!(code, 0);
    for heading in [
        "Play:",
        "Study a position or a game:",
        "Machine interface",
        "Server:",
        "Development:",
    ] {
        assert!(out.contains(heading), "{heading} missing:\n{out}");
    }
    assert!(out.ends_with('\n'));
    // Help is readable without the spec: no line starts its text with a rule ID.
    for line in out.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [_, second, ..] = words[..] {
            assert!(
                !second.contains('-') || !second.starts_with(char::is_uppercase),
                "{line}"
            );
        }
    }
}
