//! `bao svg` draws well-formed SVG showing the seed counts; `bao show` is coloured only when
//! asked for a terminal, and its plain text never changes.

use std::process::Command;

fn bao() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_bao"));
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    c
}

// Fixture kis-04's position (interface.md CLI-2).
const KIS04: &str =
    "kiswahili 0,0,0,0,0,0,0,0/1,0,1,8,3,2,0,0/0,0,0,0,7,0,0,0/0,0,0,0,0,0,0,0 S 21/21 house:S,house:N 0";

fn counts(pos: &str) -> Vec<Vec<u32>> {
    let board = pos.split(' ').nth(1).unwrap();
    board
        .split('/')
        .map(|r| r.split(',').map(|c| c.parse().unwrap()).collect())
        .collect()
}

#[test]
fn svg_is_well_formed_and_shows_the_counts() {
    let out = bao()
        .args(["svg", KIS04, "--last-move", "a5R"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("data-position"), Some(KIS04));
    // NOT-3.2: rows b8..b1, a8..a1, A1..A8, B1..B8.
    let names = [
        ["b8", "b7", "b6", "b5", "b4", "b3", "b2", "b1"],
        ["a8", "a7", "a6", "a5", "a4", "a3", "a2", "a1"],
        ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"],
        ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"],
    ];
    let c = counts(KIS04);
    for (r, row) in names.iter().enumerate() {
        for (k, name) in row.iter().enumerate() {
            let id = format!("pit-{name}");
            let g = doc
                .descendants()
                .find(|n| n.attribute("id") == Some(id.as_str()))
                .unwrap_or_else(|| panic!("{id}"));
            let want = c[r][k].to_string();
            assert_eq!(g.attribute("data-seeds"), Some(want.as_str()), "{id}");
            let shown = g
                .descendants()
                .find(|n| n.attribute("class") == Some("count"))
                .and_then(|n| n.text());
            assert_eq!(shown, Some(want.as_str()), "{id}");
        }
    }
    for (id, n) in [("hand-S", "21"), ("hand-N", "21")] {
        let g = doc
            .descendants()
            .find(|x| x.attribute("id") == Some(id))
            .unwrap();
        assert_eq!(g.attribute("data-seeds"), Some(n));
    }
    // The last move's start pit (North moved, lower case) is marked.
    let a5 = doc
        .descendants()
        .find(|x| x.attribute("id") == Some("pit-a5"))
        .unwrap();
    assert!(a5
        .attribute("class")
        .unwrap()
        .split(' ')
        .any(|c| c == "last-move"));
    // BRD-2.4 / KIS-7.1: both houses are owned here.
    let house = doc
        .descendants()
        .find(|x| x.attribute("id") == Some("pit-A5"))
        .unwrap();
    let classes = house.attribute("class").unwrap();
    assert!(
        classes.contains("house") && classes.contains("owned"),
        "{classes}"
    );
}

#[test]
fn svg_refuses_bad_input() {
    let out = bao().args(["svg", "kiswahili 1,2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: bad_position: "));
    let out = bao()
        .args(["svg", "kimasai", "--last-move", "Q9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: bad_move: "));
    let out = bao()
        .args(["svg", "kete", "--highlight", "A9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn svg_of_every_start_position() {
    for v in ["kiswahili", "kete", "kimasai"] {
        let out = bao()
            .args(["svg", v, "--flip", "--size", "0"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(doc.root_element().attribute("width").is_none());
        let pits = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("pit ")))
            .count();
        assert_eq!(pits, 32);
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn show_colour_only_on_request_and_plain_text_unchanged() {
    // Not a terminal: plain text, exactly the CLI-6 layout.
    let plain = bao().args(["show", KIS04]).output().unwrap();
    assert!(plain.status.success());
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(!plain.contains('\x1b'));
    assert!(
        plain.starts_with("North hand 21\n    b8 b7 b6 b5 b4 b3 b2 b1\n"),
        "{plain}"
    );
    // Forced colour (as on a terminal): the same text once the colour codes are removed.
    let coloured = bao()
        .args(["show", KIS04])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    let coloured = String::from_utf8(coloured.stdout).unwrap();
    assert!(coloured.contains('\x1b'), "{coloured}");
    assert_eq!(strip_ansi(&coloured), plain);
    // NO_COLOR wins (no-color.org).
    let no = bao()
        .args(["show", KIS04])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(no.stdout).unwrap(), plain);
    // A finished game keeps its "game over" line in both forms.
    let over =
        "kimasai 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 N 28/28 - 9";
    let p = bao().args(["show", over]).output().unwrap();
    let p = String::from_utf8(p.stdout).unwrap();
    let c = bao()
        .args(["show", over])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert_eq!(strip_ansi(&String::from_utf8(c.stdout).unwrap()), p);
    assert!(p.contains("game over"), "{p}");
}
