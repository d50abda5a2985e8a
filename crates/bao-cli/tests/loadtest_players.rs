//! `bao loadtest --players` does what its --help says: it makes the accounts, opens a signed-in
//! player socket for each, measures the idle window and times challenges from one instance to
//! a socket on another until every one is heard (docs/api.md, "Measured").
//!
//! The two-instance case needs BAO_TEST_POSTGRES_URL (scripts/start-postgres.sh); without it
//! the test fails and says so.

use std::process::Command;

fn loadtest(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .arg("loadtest")
        .args(args)
        .output()
        .expect("bao runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// The report's line that starts with `label`.
fn line<'a>(report: &'a str, label: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{report}"))
}

#[test]
fn idle_players_on_one_instance_hear_every_challenge() {
    let r = loadtest(&[
        "--players",
        "12",
        "--idle-secs",
        "1",
        "--events",
        "10",
        "--events-secs",
        "1",
    ]);
    assert!(
        line(&r, "player sockets").starts_with("player sockets     12 opened of 12"),
        "{r}"
    );
    assert!(
        line(&r, "idle CPU").contains("µs per socket per second"),
        "{r}"
    );
    assert!(line(&r, "memory").contains("KiB per socket"), "{r}");
    assert!(
        line(&r, "events").contains("10 challenges sent, 10 heard, 0 lost (one instance)"),
        "{r}"
    );
    assert_eq!(line(&r, "errors"), "errors             0", "{r}");
}

#[test]
fn challenges_cross_from_one_instance_to_the_other() {
    let pg = std::env::var("BAO_TEST_POSTGRES_URL").expect(
        "BAO_TEST_POSTGRES_URL is not set: export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)",
    );
    let r = loadtest(&[
        "--players",
        "8",
        "--instances",
        "2",
        "--database",
        &pg,
        "--idle-secs",
        "1",
        "--events",
        "10",
        "--events-secs",
        "1",
    ]);
    assert!(
        line(&r, "events").contains(
            "10 challenges sent, 10 heard, 0 lost (sent through one instance, heard on another)"
        ),
        "{r}"
    );
    assert_eq!(line(&r, "errors"), "errors             0", "{r}");
}

#[test]
fn wrong_combinations_are_named() {
    for (args, says) in [
        (
            &["--players", "2", "--addr", "127.0.0.1:9"][..],
            "needs --database",
        ),
        (
            &["--players", "2", "--server-pid", "1"][..],
            "give its --addr",
        ),
        (
            &["--players", "1", "--events", "5"][..],
            "at least 2 players",
        ),
        (
            &["--players", "2", "--instances", "2"][..],
            "give --database postgres://",
        ),
        (
            &["--addr", "127.0.0.1:9", "--addr", "127.0.0.1:10"][..],
            "give --addr once",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_bao"))
            .arg("loadtest")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
