//! Every case of the spec's fixtures (docs/spec/fixtures, the repository's copy of the
//! specification), run against the `bao` binary exactly as fixtures/README.md describes. A
//! failure names the case and the rule IDs it covers. That docs/spec is current is checked in
//! tests/spec_ids.rs.

mod common;
use common::bao;
use std::path::{Path, PathBuf};

#[derive(Default, Debug)]
struct Case {
    id: String,
    covers: String,
    rules: String,
    position: String,
    keys: Vec<(String, String)>,
    block: Vec<String>,
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/spec/fixtures")
}

/// Splits a fixture file into cases (README: "Case format").
fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if in_block {
            if line == "end" {
                in_block = false;
            } else {
                cases.last_mut().unwrap().block.push(line.to_string());
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("depth ") {
            cases.last_mut().unwrap().block.push(line.to_string());
            continue;
        }
        if line == "trace:" {
            in_block = true;
            continue;
        }
        if line == "end" {
            continue;
        }
        let (k, v) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad fixture line {line:?}"));
        match k {
            "case" => cases.push(Case {
                id: v.to_string(),
                ..Default::default()
            }),
            "covers" => cases.last_mut().unwrap().covers = v.to_string(),
            "rules" => cases.last_mut().unwrap().rules = v.to_string(),
            "position" => cases.last_mut().unwrap().position = v.to_string(),
            _ => cases
                .last_mut()
                .unwrap()
                .keys
                .push((k.to_string(), v.to_string())),
        }
    }
    cases
}

/// `MOVE POSITION RESULT`: first token, last token, the rest.
fn split_line(v: &str) -> (String, String, String) {
    let first = v.split_once(' ').unwrap();
    let last = first.1.rsplit_once(' ').unwrap();
    (first.0.to_string(), last.0.to_string(), last.1.to_string())
}

fn with_rules<'a>(c: &'a Case, cmd: &'a str) -> Vec<&'a str> {
    let mut v = vec![cmd];
    if c.rules != "-" {
        v.push("--rules");
        v.push(&c.rules);
    }
    v
}

fn check_case(c: &Case, failures: &mut Vec<String>) {
    let mut fail = |what: String| {
        failures.push(format!("{} [{}]: {what}", c.id, c.covers));
    };
    // legal / line: `bao moves`.
    let legal: Vec<&String> = c
        .keys
        .iter()
        .filter(|(k, _)| k == "legal")
        .map(|(_, v)| v)
        .collect();
    let lines: Vec<&String> = c
        .keys
        .iter()
        .filter(|(k, _)| k == "line")
        .map(|(_, v)| v)
        .collect();
    if !legal.is_empty() || !lines.is_empty() {
        let mut args = with_rules(c, "moves");
        args.push(&c.position);
        let (code, out, err) = bao(&args);
        if code != 0 {
            fail(format!("bao moves exited {code}: {err}"));
        } else {
            let got: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
            for l in &legal {
                let want: Vec<&str> = if l.as_str() == "none" {
                    vec![]
                } else {
                    l.split(' ').collect()
                };
                if got != want {
                    fail(format!("legal moves: want {want:?}, got {got:?}"));
                }
            }
            if !lines.is_empty() {
                let want: Vec<String> = lines
                    .iter()
                    .map(|v| {
                        let (m, p, r) = split_line(v);
                        format!("{m}\t{p}\t{r}")
                    })
                    .collect();
                let got: Vec<&str> = out.lines().collect();
                if got != want {
                    fail(format!("bao moves output:\nwant {want:#?}\ngot  {got:#?}"));
                }
            }
        }
    }
    // step: `bao apply position M1 … Mk`.
    let mut moves: Vec<String> = Vec::new();
    for (k, v) in &c.keys {
        if k != "step" {
            continue;
        }
        let (m, p, r) = split_line(v);
        moves.push(m);
        let mut args = with_rules(c, "apply");
        args.push(&c.position);
        args.extend(moves.iter().map(|s| s.as_str()));
        let (code, out, err) = bao(&args);
        let want = format!("{p}\n{r}\n");
        if code != 0 || out != want {
            fail(format!(
                "apply {moves:?}: want {want:?}, got {out:?} (exit {code}, {err})"
            ));
        }
    }
    // alias: both inputs succeed and print the same.
    for (k, v) in &c.keys {
        if k != "alias" {
            continue;
        }
        let (input, canon) = v.split_once(' ').unwrap();
        let run = |m: &str| {
            let mut args = with_rules(c, "apply");
            args.push(&c.position);
            args.push(m);
            bao(&args)
        };
        let a = run(input);
        let b = run(canon);
        if a.0 != 0 || b.0 != 0 || a.1 != b.1 {
            fail(format!("alias {input} = {canon}: {a:?} vs {b:?}"));
        }
    }
    // reject: exit 2, no stdout, stderr category.
    for (k, v) in &c.keys {
        if k != "reject" {
            continue;
        }
        let (m, cat) = v.split_once(' ').unwrap();
        let mut args = with_rules(c, "apply");
        args.push(&c.position);
        args.push(m);
        let (code, out, err) = bao(&args);
        if code != 2
            || !out.is_empty()
            || !err.starts_with(&format!("error: {cat}:"))
            || err.lines().count() != 1
        {
            fail(format!(
                "reject {m} as {cat}: exit {code}, stdout {out:?}, stderr {err:?}"
            ));
        }
    }
    // error: the position is refused.
    for (k, v) in &c.keys {
        if k != "error" {
            continue;
        }
        let mut args = with_rules(c, "moves");
        args.push(&c.position);
        let (code, out, err) = bao(&args);
        if code != 2 || !out.is_empty() || !err.starts_with(&format!("error: bad_position: {v}:")) {
            fail(format!(
                "position error {v}: exit {code}, stdout {out:?}, stderr {err:?}"
            ));
        }
    }
}

fn check_trace(c: &Case, failures: &mut Vec<String>) {
    let mv = &c
        .keys
        .iter()
        .find(|(k, _)| k == "move")
        .expect("trace case has a move")
        .1;
    let mut args = with_rules(c, "trace");
    args.push(&c.position);
    args.push(mv);
    let (code, out, err) = bao(&args);
    let want = c.block.join("\n") + "\n";
    if code != 0 || out != want {
        failures.push(format!(
            "{} [{}]: trace {mv}: exit {code} {err}\nwant:\n{want}\ngot:\n{out}",
            c.id, c.covers
        ));
    }
}

fn check_perft(c: &Case, failures: &mut Vec<String>) {
    let depth = c.block.len().to_string();
    let mut args = with_rules(c, "perft");
    args.push(&c.position);
    args.push(&depth);
    let (code, out, err) = bao(&args);
    let want = c.block.join("\n") + "\n";
    if code != 0 || out != want {
        failures.push(format!(
            "{}: perft: exit {code} {err}\nwant:\n{want}\ngot:\n{out}",
            c.id
        ));
    }
}

fn run_file(name: &str) {
    let text = std::fs::read_to_string(fixture_dir().join(name)).expect("fixture file");
    let cases = parse_cases(&text);
    assert!(!cases.is_empty(), "{name} has no cases");
    let mut failures = Vec::new();
    for c in &cases {
        match name {
            "trace.txt" => check_trace(c, &mut failures),
            "perft.txt" => check_perft(c, &mut failures),
            _ => check_case(c, &mut failures),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases in {name} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn fixtures_kiswahili() {
    run_file("kiswahili.txt");
}

#[test]
fn fixtures_kete() {
    run_file("kete.txt");
}

#[test]
fn fixtures_kimasai() {
    run_file("kimasai.txt");
}

#[test]
fn fixtures_notation() {
    run_file("notation.txt");
}

#[test]
fn fixtures_trace() {
    run_file("trace.txt");
}

#[test]
fn fixtures_perft() {
    run_file("perft.txt");
}
