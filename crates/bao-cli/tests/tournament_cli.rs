//! `bao tournament`: a tiny round robin and a tiny Swiss among fast levels, end to end: the
//! crosstable adds up, the standings agree with it, and the record file validates (NOT-6).

use std::path::PathBuf;
use std::process::Command;

fn bao(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn dir(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-tournament-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The crosstable's rows: (name, cells by column, byes, points).
fn crosstable(out: &str) -> Vec<(String, Vec<Option<f64>>, f64, f64)> {
    let start = out.find("crosstable").expect("a crosstable");
    let lines: Vec<&str> = out[start..]
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = w.len();
            let cells = w[2..n - 2]
                .iter()
                .map(|c| match *c {
                    "*" | "." => None,
                    v => Some(v.parse::<f64>().unwrap()),
                })
                .collect();
            (
                w[1].to_string(),
                cells,
                w[n - 2].parse().unwrap(),
                w[n - 1].parse().unwrap(),
            )
        })
        .collect()
}

/// The standings' rows: (rank, name, points).
fn standings(out: &str) -> Vec<(usize, String, f64)> {
    let start = out.find("\nstandings\n").expect("standings") + 1;
    out[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with(' '))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (
                w[0].parse().unwrap(),
                w[1].to_string(),
                w[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_tiny_round_robin_adds_up_and_its_records_validate() {
    let d = dir("rr");
    let records = d.join("games.txt");
    let csv = d.join("standings.csv");
    let (code, out, err) = bao(&[
        "tournament",
        "level:1",
        "depth:1",
        "depth:2",
        "--max-plies",
        "120",
        "--concurrency",
        "2",
        "--records",
        records.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("tournament: round robin, 3 players, 3 rounds"),
        "{out}"
    );
    // Three games (one a round, a bye each round), each printed as it finishes.
    assert_eq!(out.matches(" board 1: ").count(), 3, "{out}");
    assert_eq!(out.matches(" has a bye").count(), 3, "{out}");
    let rows = crosstable(&out);
    assert_eq!(rows.len(), 3, "{out}");
    let mut total = 0.0;
    for (i, (name, cells, byes, points)) in rows.iter().enumerate() {
        assert_eq!(cells.len(), 3);
        assert_eq!(cells[i], None, "{name} against himself");
        // Each pair met once: the two cells add up to one game's point.
        for (j, c) in cells.iter().enumerate() {
            if i != j {
                let back = rows[j].1[i].unwrap();
                assert_eq!(c.unwrap() + back, 1.0, "{out}");
            }
        }
        // A row's points are its games plus its bye (worth 1).
        assert_eq!(*byes, 1.0);
        let sum: f64 = cells.iter().flatten().sum();
        assert_eq!(sum + byes, *points, "{out}");
        total += points;
    }
    // Three games of one point, three byes of one point.
    assert_eq!(total, 6.0, "{out}");
    // The standings list the same players with the same points, best first.
    let st = standings(&out);
    assert_eq!(st.len(), 3, "{out}");
    for ((rank, name, points), (row, _, _, row_points)) in st.iter().zip(&rows) {
        assert_eq!(name, &rows.iter().find(|r| &r.0 == name).unwrap().0);
        assert_eq!(points, row_points, "{out}");
        assert_eq!(name, row);
        assert!(*rank >= 1);
    }
    assert!(st.windows(2).all(|w| w[0].2 >= w[1].2), "{out}");
    // The records: three games that replay legally to their results.
    let (code, v, verr) = bao(&["record", "validate", records.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}{verr}");
    assert_eq!(v.matches(": valid: ").count(), 3, "{v}");
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("[Event \"bao tournament\"]").count(), 3);
    for r in 1..=3 {
        assert!(
            text.contains(&format!("[TournamentRound \"{r}\"]")),
            "{text}"
        );
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("rank,player,points,DE,SB\r\n"), "{csv}");
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_tiny_swiss_pairs_everyone_each_round() {
    let d = dir("swiss");
    let records = d.join("games.txt");
    let (code, out, err) = bao(&[
        "tournament",
        "depth:1",
        "depth:2",
        "random",
        "greedy",
        "--format",
        "swiss",
        "--rounds",
        "2",
        "--max-plies",
        "100",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("tournament: Swiss, 4 players, 2 rounds"),
        "{out}"
    );
    assert_eq!(out.matches("round 1 board ").count(), 2, "{out}");
    assert_eq!(out.matches("round 2 board ").count(), 2, "{out}");
    let rows = crosstable(&out);
    // Four games, a point each; no one meets anyone twice.
    let total: f64 = rows.iter().map(|r| r.3).sum();
    assert_eq!(total, 4.0, "{out}");
    for (_, cells, _, _) in &rows {
        assert_eq!(cells.iter().flatten().count(), 2, "{out}");
    }
    assert!(out.contains("BH-C1"), "{out}");
    let (code, v, verr) = bao(&["record", "validate", records.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}{verr}");
    assert_eq!(v.matches(": valid: ").count(), 4, "{v}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_arguments_are_explained() {
    let (code, _, err) = bao(&["tournament", "level:1"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = bao(&["tournament", "level:1", "grandmaster"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown player"), "{err}");
    let (code, _, err) = bao(&["tournament", "level:1", "level:2", "--rounds", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--rounds is for --format swiss"), "{err}");
    let (code, out, _) = bao(&["tournament", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Examples:"), "{out}");
}
