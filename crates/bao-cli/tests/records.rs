//! Game records (NOT-6): every game played here is written, re-read, validated and replayed
//! to the same final position; hostile files are refused with the line and reason, never a
//! panic; `bao record validate` and `bao record convert` on the command line.

use bao_rules::{
    parse_records, parse_records_bytes, Game, Outcome, Position, Record, RecordErrorKind,
    RecordResult, Rng, Rules, Side, Termination, Variant, MAX_RECORD_BYTES,
};
use std::process::Command;

const DONKERS: &str = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";

fn bao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bao"))
}

fn temp(name: &str, content: &[u8]) -> std::path::PathBuf {
    // Under target/tmp (cargo's folder for test files), not the machine's /tmp.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

/// Plays a random game (uniform over the legal moves, BRD-7.1) to its end under `rules`.
fn random_game(rules: Rules, start: Position, rng: &mut Rng, max: usize) -> Game {
    let mut g = Game::new(start, rules);
    for _ in 0..max {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play(&moves.as_slice()[rng.below(moves.len())]);
    }
    g
}

/// The whole round trip of one game: write, re-read, validate, replay, JSON.
fn round_trip(g: &Game) -> String {
    let mut rec = Record::from_game(g);
    rec.south = "Asha \"the quick\" \\ Mwinyi".into();
    rec.north = "?".into();
    rec.date = "2026.11.??".into();
    if !g.outcome().is_over() {
        rec.termination = Some(Termination::Abandoned);
    }
    rec.set_tag("Event", "random play");
    rec.set_tag("Annotator", "test suite"); // unknown tag: kept
    if let Some(m) = rec.moves.get_mut(1) {
        m.comment = Some("a comment with } inside".into());
    }
    let text = rec.to_string();
    let back = parse_records(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.len(), 1);
    let r = &back[0];
    let replayed = r.validate().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.position(), g.position(), "{text}");
    assert_eq!(replayed.positions(), g.positions());
    assert_eq!(replayed.outcome(), g.outcome());
    assert_eq!(r.result, RecordResult::from(g.outcome()));
    assert_eq!(r.rules, *g.rules());
    assert_eq!(r.south, rec.south);
    assert_eq!(r.tag("Annotator").as_deref(), Some("test suite"));
    // Writing what was read gives the same text (the writer is canonical).
    assert_eq!(r.to_string(), text);
    // Lines stay short (NOT-6.3: writers may break lines between tokens).
    assert!(text
        .lines()
        .skip_while(|l| l.starts_with('['))
        .all(|l| l.len() < 80));
    // JSON form: the same content.
    let json = serde_json::to_string(r).unwrap();
    let from_json: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(from_json.to_string(), text);
    text
}

#[test]
fn random_games_of_every_variant_round_trip() {
    let mut rng = Rng::new(2026);
    for v in Variant::ALL {
        let rules = Rules::new(v);
        let mut file = String::new();
        let mut games = Vec::new();
        for _ in 0..120 {
            let g = random_game(rules, Position::start(&rules), &mut rng, 10_000);
            assert!(g.outcome().is_over());
            if !file.is_empty() {
                file.push('\n');
            }
            file.push_str(&round_trip(&g));
            games.push(g);
        }
        // NOT-6.1: a file of many records separated by blank lines.
        let all = parse_records(&file).unwrap();
        assert_eq!(all.len(), games.len());
        for (r, g) in all.iter().zip(&games) {
            assert_eq!(r.validate().unwrap().position(), g.position());
        }
    }
}

#[test]
fn games_under_options_and_from_other_starts_round_trip() {
    let mut rng = Rng::new(77);
    let options = [
        (Variant::Kiswahili, "never_ending=draw,max_plies=60"),
        (Variant::Kiswahili, "repetition=none,takasia=false"),
        (Variant::Kete, "first_takasa_from_kuu=false"),
        (Variant::Kimasai, "no_intro=never"),
        (Variant::Kimasai, "capture_compulsory=true"),
    ];
    for (v, opts) in options {
        let rules = match Rules::parse(v, opts) {
            Ok(r) => r,
            // An option this build does not know is not what this test is about.
            Err(e) => panic!("{opts}: {e}"),
        };
        for i in 0..30 {
            // Start somewhere in the middle of a game, sometimes with North to move, so
            // that the record has a Start tag and may begin with `1...`.
            let pre = random_game(rules, Position::start(&rules), &mut rng, 3 + i);
            if pre.outcome().is_over() {
                continue;
            }
            let start = *pre.position();
            let g = random_game(rules, start, &mut rng, 10_000);
            let text = round_trip(&g);
            assert!(text.contains("[Start \""), "{text}");
            assert!(text.contains(&format!("[Rules \"{}\"]", rules)), "{text}");
            if start.side() == Side::North && !g.moves().is_empty() {
                assert!(text.contains("\n1... "), "{text}");
            }
        }
    }
}

#[test]
fn donkers_example_of_not_6_5_validates() {
    let recs = parse_records(DONKERS).unwrap();
    let g = recs[0].validate().unwrap();
    assert_eq!(g.moves().len(), 6);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(recs[0].tag("Site").as_deref(), Some("Zanzibar"));
    let p = temp("donkers.txt", DONKERS.as_bytes());
    let out = bao().args(["record", "validate"]).arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("record 1: valid"), "{stdout}");
    assert!(stdout.contains("6 moves"), "{stdout}");
}

#[test]
fn reader_accepts_the_input_forms_of_not_2() {
    // Donkers 2001 style: no row letters in namua, `**` takasia marks, K.I.B.A. `>` signs,
    // move numbers glued to moves, comments across lines.
    let text = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"????.??.??\"]\n[Result \"-\"]\n\n{opening}\n1.7L* a5> {a comment\nover two lines} 2. 6R* 6R** 3. A7r* a8< -\n";
    let recs = parse_records(text).unwrap();
    assert_eq!(recs[0].comment.as_deref(), Some("opening"));
    assert_eq!(
        recs[0].moves[1].comment.as_deref(),
        Some("a comment over two lines")
    );
    let canon = recs[0].canonical().unwrap();
    let donkers = parse_records(DONKERS).unwrap();
    let got: Vec<&str> = canon.moves.iter().map(|m| m.text.as_str()).collect();
    let want: Vec<&str> = donkers[0].moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(got, want);
}

/// Asserts a parse (or validation) error at `line` whose message contains `needle`.
fn refused(text: &str, line: usize, needle: &str) {
    let err = match parse_records(text) {
        Err(e) => e,
        Ok(recs) => recs
            .iter()
            .find_map(|r| r.validate().err())
            .unwrap_or_else(|| panic!("accepted:\n{text}")),
    };
    assert_eq!(err.line, line, "{err}\n{text}");
    assert!(err.to_string().contains(needle), "'{err}' lacks '{needle}'");
    assert!(
        err.to_string().starts_with(&format!("line {line}: ")),
        "{err}"
    );
}

#[test]
fn hostile_records_are_refused_with_line_and_reason() {
    let d = DONKERS;
    // A wrong move: the first wrong move is named, with its number and reason.
    refused(&d.replace("a6R*", "a4R*"), 9, "move 4 (North): 'a4R*'");
    // Moves on a later line are reported on their line.
    refused(
        &d.replace("2. A6R*", "\n2. A6R*").replace("a8L*", "a8L+"),
        10,
        "move 6",
    );
    // Something that is not a move.
    refused(
        &d.replace("a5R", "hello"),
        9,
        "'hello' is not a move number",
    );
    refused(&d.replace("a5R", "C5R"), 9, "is not a move number");
    // Malformed tags, duplicate and missing ones, bad values.
    refused(
        &d.replace("[Site \"Zanzibar\"]", "[Site Zanzibar]"),
        7,
        "not a tag line",
    );
    refused(
        &d.replace("[Site \"Zanzibar\"]", "[Site \"a\" \"b\"]"),
        7,
        "not a tag line",
    );
    refused(
        &d.replace("[Site \"Zanzibar\"]", "[South \"x\"]"),
        7,
        "given twice",
    );
    refused(
        &d.replace("[Date \"1994.10.17\"]\n", ""),
        1,
        "required tag Date",
    );
    refused(&d.replace("1994.10.17", "17/10/1994"), 5, "YYYY.MM.DD");
    refused(
        &d.replace("\"kiswahili\"", "\"chess\""),
        1,
        "not kiswahili, kete or kimasai",
    );
    refused(
        &d.replace("[Rules \"-\"]", "[Rules \"takasia=maybe\"]"),
        2,
        "Rules",
    );
    refused(
        &d.replace("[Result \"-\"]", "[Result \"won\"]"),
        6,
        "not S, N, draw or -",
    );
    refused(
        &d.replace("[Site", "[Start \"kimasai\"]\n[Site"),
        7,
        "not a kiswahili position",
    );
    refused(
        &d.replace("[Site", "[Termination \"boredom\"]\n[Site"),
        7,
        "Termination",
    );
    // Movetext problems.
    refused(&d.replace(" -\n", "\n"), 10, "without a result token");
    refused(&d.replace(" -\n", " S\n"), 9, "differs from the Result tag");
    refused(
        &d.replace(" -\n", " - A7L*\n"),
        9,
        "follows the result token",
    );
    refused(&d.replace("a5R", "{open a5R"), 9, "never closed");
    refused(&d.replace("3. ", "3x "), 9, "'3x'");
    // Termination rules (the default with a result): the result must be the one reached.
    refused(
        &d.replace("[Result \"-\"]", "[Result \"S\"]")
            .replace(" -\n", " S\n"),
        9,
        "lead to '-'",
    );
    // With another termination the result is taken as given.
    let resigned = d
        .replace(
            "[Result \"-\"]",
            "[Result \"N\"]\n[Termination \"resignation\"]",
        )
        .replace(" -\n", " N\n");
    parse_records(&resigned).unwrap()[0].validate().unwrap();
}

#[test]
fn a_move_after_the_end_is_refused() {
    // Play a random game to its end, then add one more token: any move text.
    let rules = Rules::new(Variant::Kimasai);
    let mut rng = Rng::new(3);
    let g = random_game(rules, Position::start(&rules), &mut rng, 10_000);
    let text = Record::from_game(&g).to_string();
    let result = g.outcome().token();
    let extra = text.replace(&format!(" {result}\n"), &format!(" A1 {result}\n"));
    let extra = if extra == text {
        // The result token began a new line.
        text.replace(&format!("\n{result}\n"), &format!("\nA1 {result}\n"))
    } else {
        extra
    };
    let err = parse_records(&extra).unwrap()[0].validate().unwrap_err();
    assert!(
        matches!(err.kind, RecordErrorKind::MoveAfterEnd { number, .. } if number == g.moves().len() + 1),
        "{err}"
    );
    assert!(err.to_string().contains("already over"), "{err}");
    assert!(err.line > 0);
}

#[test]
fn truncated_records_never_panic() {
    // Cut a real record at every byte: each prefix is either a valid record or refused
    // with a line number inside the prefix.
    let rules = Rules::new(Variant::Kiswahili);
    let mut rng = Rng::new(8);
    let g = random_game(rules, Position::start(&rules), &mut rng, 40);
    let mut rec = Record::from_game(&g);
    rec.moves[0].comment = Some("first".into());
    let text = rec.to_string();
    for cut in 0..text.len() {
        let prefix = &text[..cut];
        match parse_records(prefix) {
            Ok(recs) => {
                for r in recs {
                    let _ = r.validate();
                }
            }
            Err(e) => {
                let lines = prefix.split('\n').count();
                assert!(e.line <= lines.max(1), "cut {cut}: {e}");
                assert!(!e.reason().is_empty());
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(1234);
    let alphabet = b"[]\"\\{} \n\tAaBb12345678LR+*<>.-SNdrawVariantRules?x\r\xff";
    for _ in 0..3000 {
        let len = rng.below(300);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(recs) = parse_records_bytes(&bytes) {
            for r in recs {
                let _ = r.validate();
            }
        }
        // Also mutate a valid record in one place.
        let mut d = DONKERS.as_bytes().to_vec();
        let i = rng.below(d.len());
        d[i] = alphabet[rng.below(alphabet.len())];
        if let Ok(recs) = parse_records_bytes(&d) {
            for r in recs {
                let _ = r.validate();
            }
        }
    }
}

#[test]
fn not_utf8_names_the_line() {
    let mut bytes = DONKERS.as_bytes().to_vec();
    let at = DONKERS.find("Kijumbe").unwrap();
    bytes[at] = 0xff;
    let e = parse_records_bytes(&bytes).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.to_string().contains("not UTF-8"), "{e}");
}

#[test]
fn huge_files_are_refused_with_a_clear_error() {
    let mut big = DONKERS.as_bytes().to_vec();
    big.resize(MAX_RECORD_BYTES + 1, b' ');
    let e = parse_records_bytes(&big).unwrap_err();
    assert!(matches!(e.kind, RecordErrorKind::TooLarge(_)));
    assert!(e.to_string().contains("16 MiB"), "{e}");
    let p = temp("huge.txt", &big);
    let out = bao().args(["record", "validate"]).arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: too_large: "), "{err}");
    assert!(err.contains("16 MiB"), "{err}");
    let _ = std::fs::remove_file(p);
}

#[test]
fn cli_validate_names_the_first_wrong_move() {
    let bad = format!("{DONKERS}\n{}", DONKERS.replace("a6R*", "a4R*"));
    let p = temp("bad.txt", bad.as_bytes());
    let out = bao().args(["record", "validate"]).arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: illegal_move: "), "{err}");
    assert!(
        err.contains("record 2, line 19: move 4 (North): 'a4R*'"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);

    let out = bao()
        .args(["record", "validate", "/nonexistent/x.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_convert_text_json_text() {
    // Non-canonical input forms come out canonical (NOT-6.3 writers use NOT-1).
    let loose = DONKERS.replace("A7L*", "7L*").replace("a5R", "a5>");
    let p = temp("loose.txt", loose.as_bytes());
    let out = bao().args(["record", "convert"]).arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "kiswahili");
    assert_eq!(json["moves"][0]["move"], "A7L*");
    assert_eq!(json["moves"][1]["move"], "a5R");
    assert_eq!(json["tags"][0]["name"], "Site");
    let pj = temp("d.json", &out.stdout);
    let out = bao().args(["record", "convert"]).arg(&pj).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), DONKERS);
    // --to text on text input canonicalises.
    let out = bao()
        .args(["record", "convert", "--to", "text"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), DONKERS);
    // Bad JSON is refused with a reason.
    let pb = temp("bad.json", b"{\"variant\": \"kiswahili\"}");
    let out = bao().args(["record", "convert"]).arg(&pb).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: bad_record: "), "{err}");
}
